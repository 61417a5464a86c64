package org.folio.sidecar.load.ab;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.folio.sidecar.load.measure.ClosedLoop;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The report's pictures, drawn from the run's own samples. */
final class Charts {

  private static final int SMOOTHING_SECONDS = 5;

  private Charts() {
  }

  /**
   * UMA calls per second over each run's workload, a {@value #SMOOTHING_SECONDS}-second moving mean: the baseline's
   * thrash at every token refresh against the optimized fleet's cold start and refresh-ahead. Returns the file's name,
   * or why there is none (a machine without fonts cannot draw).
   */
  static String umaPerSecond(Path out, List<AbRun.VariantResult> results) {
    var chart = new XYChartBuilder().width(900).height(420).title("UMA decision calls per second (5 s mean)")
      .xAxisTitle("seconds of workload").yAxisTitle("calls/s").build();
    chart.getStyler().setMarkerSize(0);
    for (var result : results) {
      var each = result.steady().umaEachSecond();
      if (each.length == 0) {
        continue;
      }
      double[] x = IntStream.range(0, each.length).mapToDouble(i -> i + 1).toArray();
      double[] y = IntStream.range(0, each.length).mapToDouble(i -> mean(each, i)).toArray();
      chart.addSeries(result.name(), x, y).setMarker(SeriesMarkers.NONE);
    }
    return save(chart, out, "uma-per-second.png");
  }

  /** Requests per second each path reached at each connection count of the closed loop. */
  static String throughput(Path out, List<ClosedLoop.Point> points, String title, String file) {
    var chart = new XYChartBuilder().width(900).height(420)
      .title("Hit path, closed loop: requests per second, " + title)
      .xAxisTitle("connections").yAxisTitle("requests/s").build();
    for (var path : points.stream().map(ClosedLoop.Point::path).distinct().toList()) {
      var mine = points.stream().filter(point -> point.path().equals(path)).toList();
      chart.addSeries(path, mine.stream().mapToDouble(ClosedLoop.Point::connections).toArray(),
        mine.stream().mapToDouble(ClosedLoop.Point::requestsPerSecond).toArray());
    }
    return save(chart, out, file);
  }

  private static String save(XYChart chart, Path out, String file) {
    try {
      BitmapEncoder.saveBitmap(chart, out.resolve(file).toString(), BitmapEncoder.BitmapFormat.PNG);
      return file;
    } catch (IOException | RuntimeException | Error e) {
      return "not drawn: " + e;
    }
  }

  private static double mean(long[] values, int end) {
    int from = Math.max(0, end - SMOOTHING_SECONDS + 1);
    long sum = 0;
    for (int i = from; i <= end; i++) {
      sum += values[i];
    }
    return (double) sum / (end - from + 1);
  }
}
