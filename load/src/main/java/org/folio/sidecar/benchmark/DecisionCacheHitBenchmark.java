package org.folio.sidecar.benchmark;

import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.authz.AuthorizationRequest;
import org.folio.sidecar.authz.Decision;
import org.folio.sidecar.authz.DecisionCache;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.testkit.ConfigMappings;
import org.folio.sidecar.token.VerifiedToken;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The decision cache's hit path, what every authorized request pays once the cache is warm: the key built from
 * an already-verified token, the lookup, the freshness check. Prints ns/op and bytes allocated per op
 * ({@code gc.alloc.rate.norm}). Run with {@code load/jmh.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DecisionCacheHitBenchmark {

  private DecisionCache cache;
  private AuthorizationRequest userRequest;
  private AuthorizationRequest serviceRequest;

  @Setup
  public void warm() {
    cache = new DecisionCache(request -> Future.succeededFuture(Decision.PERMIT),
      ConfigMappings.load(AuthzCacheConfig.class, Map.of()),
      new SimpleMeterRegistry(), Ticker.systemTicker());
    var user = new VerifiedToken("raw", "diku", "diku-login-application", "diku_admin",
      "2c8a7f4e-6f7b-4a36-9a51-0e4bb3a7c9d2", "5d2f0b6e-1a2b-4c3d-8e9f-0a1b2c3d4e5f", 1_800_000_000L, 0);
    var service = new VerifiedToken("raw", "diku", "sidecar-module-access-client", "3f1e2d3c", null, null,
      1_800_000_000L, 0);
    userRequest = new AuthorizationRequest("diku", "/circulation/check-out-by-barcode#POST", user);
    serviceRequest = new AuthorizationRequest("diku", "/inventory/items/{id}#GET", service);
    cache.decide(userRequest);
    cache.decide(serviceRequest);
  }

  @Benchmark
  public Decision userTokenHit() {
    return cache.decide(userRequest).result();
  }

  @Benchmark
  public Decision serviceTokenHit() {
    return cache.decide(serviceRequest).result();
  }

  public static void main(String[] args) throws RunnerException {
    new Runner(new OptionsBuilder()
      .include(DecisionCacheHitBenchmark.class.getSimpleName())
      .forks(1)
      .warmupIterations(3).warmupTime(TimeValue.seconds(1))
      .measurementIterations(5).measurementTime(TimeValue.seconds(1))
      .addProfiler(GCProfiler.class)
      .build()).run();
  }
}
