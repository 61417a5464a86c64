package org.folio.sidecar.load.profile;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.folio.sidecar.load.cli.Args;
import org.folio.sidecar.load.cli.Command;
import org.folio.sidecar.load.fleet.CirculationModules;
import org.folio.sidecar.load.fleet.Nginx;
import org.folio.sidecar.load.fleet.ShippedJvmOptions;
import org.folio.sidecar.load.fleet.SidecarFleet;
import org.folio.sidecar.load.fleet.StubModules;
import org.folio.sidecar.load.fleet.TimeScale;
import org.folio.sidecar.load.keycloak.LoadRealms;
import org.folio.sidecar.load.measure.AttachedJvm;
import org.folio.sidecar.load.measure.ClosedLoop;
import org.folio.sidecar.load.measure.LoadAverage;
import org.folio.sidecar.load.measure.ProcessMeter;
import org.folio.sidecar.testkit.FolioRealms;
import org.folio.sidecar.testkit.FreePorts;
import org.folio.sidecar.testkit.KeycloakServer;
import org.folio.sidecar.testkit.TestTenant;

/**
 * The hit path under a profiler (load/profile.sh): one tenant, one user, the users stub behind a packaged sidecar
 * with a warm decision cache, wrk's closed loop against it. First the unprofiled figures (requests/s of the
 * sidecar, nginx and the stub side by side, the sidecar's CPU and bytes allocated per request), then
 * async-profiler attached to the sidecar in CPU, allocation and wall-clock mode, one flame graph each, and a
 * table of where the samples go by concern ({@link ProfileCategories}).
 */
public final class HitPathProfile {

  private static final String TENANT = "ltprof";
  private static final List<String> EVENTS = List.of("cpu", "alloc", "wall");

  private HitPathProfile() {
  }

  public static void main(String[] args) {
    Command.exit(args, HitPathProfile::run);
  }

  private static int run(List<String> args) throws Exception {
    int seconds = Args.option(args, "--seconds").map(Integer::parseInt).orElse(15);
    int warmUp = Args.option(args, "--warm-up").map(Integer::parseInt).orElse(40);
    int connections = Args.option(args, "--connections").map(Integer::parseInt).orElse(64);
    var stubMillisList = Args.option(args, "--stub-millis").map(value -> Arrays.stream(value.split(","))
      .map(Integer::parseInt).toList()).orElse(List.of(2, 0));
    var project = Path.of("").toAbsolutePath();
    var out = Args.out(args, Args.now("yyyyMMdd-HHmmss") + "-profile");
    Files.createDirectories(out.resolve("logs"));
    var wrk = ClosedLoop.wrk().orElseThrow(() -> new IllegalStateException("wrk is not installed"));
    var library = AsyncProfiler.extract(out);

    var keycloak = KeycloakServer.get();
    new FolioRealms(keycloak.admin()).provisionAdminClient(LoadRealms.ADMIN_SECRET);
    var user = new LoadRealms(keycloak.admin()).provision(TENANT, 1, 3600).getFirst();
    var token = keycloak.admin().token(TENANT, Map.of("grant_type", "password", "client_id",
      TENANT + "-login-application", "client_secret", TestTenant.LOGIN_SECRET, "username", user.username(),
      "password", TestTenant.PASSWORD)).getString("access_token");
    var caller = new ClosedLoop.Caller(TENANT, user.userId(), () -> token);
    var report = new StringBuilder();
    report.append("# Hit-path profile\n\n").append("`load/profile.sh ").append(String.join(" ", args))
      .append("`: one tenant, one user, `GET /users/{id}` (a decision-cache hit) through one packaged sidecar (")
      .append(ShippedJvmOptions.line()).append("), wrk ").append(connections).append(" connections, ")
      .append(seconds).append(" s per figure after ").append(warmUp).append(" s of warm-up.\n\n");
    var file = out.resolve("measurements.md");
    Files.writeString(file, report);
    // each stub's section is written as soon as it is complete: a later failure keeps the earlier figures
    for (int stubMillis : stubMillisList) {
      Files.writeString(file, profileOne(project, out, wrk, library, keycloak.hop().url(), caller, stubMillis,
        connections, seconds, warmUp), StandardOpenOption.APPEND);
    }
    System.out.println(Files.readString(file));
    log("written %s", file);
    return 0;
  }

  private static String profileOne(Path project, Path out, String wrk, Path library, String keycloakUrl,
    ClosedLoop.Caller caller, int stubMillis, int connections, int seconds, int warmUp) throws Exception {
    var label = "stub-" + stubMillis + "ms";
    var modulePorts = new HashMap<String, Integer>();
    var sidecarPorts = new HashMap<String, Integer>();
    var discovery = new HashMap<String, String>();
    for (var module : CirculationModules.ALL) {
      modulePorts.put(module.name(), FreePorts.next());
      discovery.put(module.name(), "http://127.0.0.1:" + FreePorts.next());
    }
    var users = CirculationModules.USERS.name();
    // one sidecar, the users module's: the others would only compete for the two cores
    int sidecarPort = FreePorts.next();
    sidecarPorts.put(users, sidecarPort);
    discovery.put(users, "http://127.0.0.1:" + sidecarPort);
    int managersPort = FreePorts.next();
    var section = new StringBuilder("## Stub answering ")
      .append(stubMillis == 0 ? "at once" : "after " + stubMillis + " ms").append("\n\n");
    try (var stubs = new StubModules(stubMillis)) {
      for (var module : CirculationModules.ALL) {
        stubs.startModule(module.name(), modulePorts.get(module.name()), discovery.get(module.name()));
      }
      stubs.startManagers(managersPort, discovery, List.of(TENANT));
      var platform = new SidecarFleet.Platform(keycloakUrl, "http://127.0.0.1:" + managersPort, List.of(TENANT),
        LoadRealms.ADMIN_SECRET, TestTenant.SERVICE_SECRET);
      var command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
      command.addAll(ShippedJvmOptions.list());
      // frames between safepoints, and no warning when the profiler is attached
      command.addAll(List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints",
        "-XX:+EnableDynamicAgentLoading", "-jar",
        project.resolve("sidecar/target/quarkus-app/quarkus-run.jar").toString()));
      var env = new HashMap<>(new TimeScale(1).sidecarEnvironment());
      env.put("SIDECAR_AUTHZ_CACHE_MODE", "optimized");
      // the access line in production's (upstream's) format, not the fleet's compact one
      env.put("SC_ACCESS_LOG_FORMAT", "");
      int nginxPort = FreePorts.next();
      try (var fleet = SidecarFleet.start(command, env, platform, modulePorts, sidecarPorts, Map.of(),
        out.resolve("logs").resolve(label));
        var nginx = Nginx.start(nginxPort, modulePorts.get(users), out.resolve("nginx-" + label)).orElse(null)) {
        var sidecar = fleet.process(users);
        var urls = new LinkedHashMap<String, String>();
        urls.put("direct", "http://127.0.0.1:" + modulePorts.get(users));
        urls.put("sidecar", fleet.url(users));
        if (nginx != null) {
          urls.put("nginx", "http://127.0.0.1:" + nginxPort);
        }
        log("%s: warming the sidecar up for %d s", label, warmUp);
        ClosedLoop.wrk(wrk, urls.get("sidecar") + "/users/" + caller.userId(), caller, connections, warmUp);
        var allocation = new AttachedJvm(sidecar.pid());
        section.append("Load average before: ").append(LoadAverage.line()).append("\n\n")
          .append("| path | requests/s | p50 ms | p99 ms | failed | sidecar CPU ms per request | sidecar bytes "
            + "allocated per request |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        var rates = new HashMap<String, Double>();
        double cpuMicrosPerRequest = Double.NaN;
        double bytesPerRequest = Double.NaN;
        for (var path : urls.entrySet()) {
          boolean isSidecar = path.getKey().equals("sidecar");
          var meter = isSidecar ? ProcessMeter.start(List.of(sidecar)) : null;
          long allocatedBefore = isSidecar ? allocation.bytes() : 0;
          var output = ClosedLoop.wrk(wrk, path.getValue() + "/users/" + caller.userId(), caller, connections, seconds);
          var usage = meter == null ? null : meter.stop();
          long allocated = isSidecar ? allocation.bytes() - allocatedBefore : 0;
          var point = ClosedLoop.parse(path.getKey(), connections, seconds, output, usage);
          rates.put(path.getKey(), point.requestsPerSecond());
          double requests = point.requestsPerSecond() * seconds;
          if (isSidecar) {
            cpuMicrosPerRequest = point.sidecarCpuPerThousand() * 1000;
            bytesPerRequest = allocated / requests;
          }
          section.append(String.format("| %s | %.0f | %.2f | %.2f | %d | %s | %s |%n", path.getKey(),
            point.requestsPerSecond(), point.p50Millis(), point.p99Millis(), point.failed(),
            isSidecar ? String.format("%.4f", point.sidecarCpuPerThousand()) : "",
            isSidecar ? String.format("%.0f", allocated / requests) : ""));
        }
        if (rates.containsKey("nginx")) {
          section.append(String.format("%nSidecar / nginx requests/s: %.2f.%n",
            rates.get("sidecar") / rates.get("nginx")));
        }
        section.append("Load average after: ").append(LoadAverage.line()).append("\n\n");
        section.append(allocation.liveSet(sidecar)).append("\n\n");
        allocation.close();
        for (var event : EVENTS) {
          var base = out.resolve(label + "-" + event);
          var collapsed = out.resolve("logs").resolve(label + "-" + event + ".collapsed");
          var start = switch (event) {
            case "alloc" -> "start,event=alloc,total";
            case "wall" -> "start,event=wall,interval=5ms";
            default -> "start,event=cpu,interval=1ms";
          };
          log("%s: profiling %s for %d s", label, event, seconds);
          AsyncProfiler.agent(sidecar.pid(), library, start);
          var output = ClosedLoop.wrk(wrk, urls.get("sidecar") + "/users/" + caller.userId(), caller, connections,
            seconds);
          AsyncProfiler.agent(sidecar.pid(), library,
            "stop,file=" + base + ".html" + (event.equals("alloc") ? ",total" : ""));
          AsyncProfiler.agent(sidecar.pid(), library, "dump,collapsed,file=" + collapsed
            + (event.equals("alloc") ? ",total" : ""));
          var point = ClosedLoop.parse("sidecar", connections, seconds, output, null);
          section.append("### ").append(event).append(": [flame graph](").append(base.getFileName())
            .append(".html)").append(String.format(" (%.0f requests/s while profiled)%n%n",
              point.requestsPerSecond()));
          if (!event.equals("wall")) {
            section.append(event.equals("alloc")
              ? ProfileCategories.table(Files.readAllLines(collapsed), "bytes", bytesPerRequest, "bytes")
              : ProfileCategories.table(Files.readAllLines(collapsed), "samples", cpuMicrosPerRequest, "CPU µs"))
              .append('\n');
          }
        }
      }
    }
    return section.toString();
  }

  private static void log(String format, Object... args) {
    System.out.printf("[profile] " + format + "%n", args);
  }
}
