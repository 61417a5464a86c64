package org.folio.sidecar.config;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Weigher;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The bound of a cache that callers can grow: a share of the heap the JVM really has ({@code Runtime.maxMemory()})
 * and a count. When the count cannot fill the share even with entries twice their typical size (a large heap),
 * the cache is bounded by the count alone, exactly as before heaps were considered. Otherwise (folio-helm-v2's
 * {@code -Xmx64m}) it is bounded by one Caffeine maximum weight: an entry weighs its estimated bytes, but at least
 * {@code bytes / maxEntries}, so neither the bytes nor the count can be exceeded.
 *
 * @param name what the start-up line calls the cache
 * @param bytes the heap share in bytes
 * @param maxEntries the count limit (the cache's existing size variable)
 * @param typicalEntry the bytes a usual entry holds, to choose between the two
 */
public record CacheBudget(String name, long bytes, long maxEntries, long typicalEntry) {

  /** A cache's budget: {@code share} of the heap, at most {@code maxEntries} entries of about {@code typicalEntry}. */
  public static CacheBudget of(String name, double share, long maxEntries, long typicalEntry) {
    return new CacheBudget(name, Math.max(1, (long) (Runtime.getRuntime().maxMemory() * share)),
      Math.max(1, maxEntries), typicalEntry);
  }

  /** The least an entry weighs, so that a full cache holds at most {@code maxEntries}. */
  long floor() {
    return Math.max(1, bytes / maxEntries);
  }

  /** Whether the heap share, rather than the count, is what limits this cache. */
  public boolean memoryBound() {
    return 2 * typicalEntry * maxEntries > bytes;
  }

  /** {@code builder} bounded by this budget, weighing each entry by {@code estimate} (bytes) if memory binds. */
  public <K, V> Caffeine<K, V> apply(Caffeine<Object, Object> builder, Estimate<K, V> estimate) {
    if (!memoryBound()) {
      // Caffeine types its builder when a weigher or listener is given; a bare bound keeps it <Object, Object>
      @SuppressWarnings("unchecked")
      var counted = (Caffeine<K, V>) (Caffeine<?, ?>) builder.maximumSize(maxEntries);
      return counted;
    }
    long floor = floor();
    Weigher<K, V> weigher = (key, value) -> (int) Math.min(Integer.MAX_VALUE,
      Math.max(floor, estimate.bytes(key, value)));
    return builder.maximumWeight(bytes).weigher(weigher);
  }

  /**
   * Publishes the cache's weight and its bound as {@code sidecar.cache.weight} / {@code .max} (bytes, tag cache);
   * a count-bound cache is not weighed, and reports its entries times the typical entry.
   */
  public void gauge(MeterRegistry registry, Cache<?, ?> cache) {
    Gauge.builder("sidecar.cache.weight", cache,
      c -> c.policy().eviction().flatMap(e -> {
        var weighted = e.weightedSize();
        return weighted.isPresent() ? java.util.Optional.of(weighted.getAsLong()) : java.util.Optional.empty();
      }).orElse(c.estimatedSize() * typicalEntry))
      .tag("cache", name).baseUnit("bytes").description("estimated heap bytes the cache holds").register(registry);
    // a strong reference: nothing else keeps this record, and a weakly held gauge would read NaN after a GC
    Gauge.builder("sidecar.cache.weight.max", this, CacheBudget::bytes).strongReference(true)
      .tag("cache", name).baseUnit("bytes").description("the cache's heap budget").register(registry);
  }

  /** The estimated heap bytes an entry holds, its cache's own structures included. */
  @FunctionalInterface
  public interface Estimate<K, V> {
    long bytes(K key, V value);
  }

  /** The retained size of a string as the JVM keeps it (compact Latin-1: header, array header, one byte a char). */
  public static long bytesOf(String text) {
    return text == null ? 0 : 40 + text.length();
  }
}
