package org.folio.sidecar.config;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Weigher;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The bound of a cache that callers can grow: a share of the heap the JVM really has ({@code Runtime.maxMemory()})
 * and a count, both as one Caffeine maximum weight. An entry weighs its estimated bytes, but at least
 * {@code bytes / maxEntries}, so neither the bytes nor the count can be exceeded: under folio-helm-v2's
 * {@code -Xmx64m} the bytes bound first, with a large heap the count does.
 *
 * @param name what the start-up line calls the cache
 * @param bytes the heap share in bytes
 * @param maxEntries the count limit (the cache's existing size variable)
 */
public record CacheBudget(String name, long bytes, long maxEntries) {

  /** A cache's budget: {@code share} of the heap, at most {@code maxEntries} entries. */
  public static CacheBudget of(String name, double share, long maxEntries) {
    return new CacheBudget(name, Math.max(1, (long) (Runtime.getRuntime().maxMemory() * share)),
      Math.max(1, maxEntries));
  }

  /** The least an entry weighs, so that a full cache holds at most {@code maxEntries}. */
  long floor() {
    return Math.max(1, bytes / maxEntries);
  }

  /** Whether the heap share, rather than the count, is what limits this cache. */
  public boolean memoryBound(long typicalEntryBytes) {
    return typicalEntryBytes * maxEntries > bytes;
  }

  /** {@code builder} bounded by this budget, weighing each entry by {@code estimate} (bytes). */
  public <K, V> Caffeine<K, V> apply(Caffeine<Object, Object> builder, Estimate<K, V> estimate) {
    long floor = floor();
    Weigher<K, V> weigher = (key, value) -> (int) Math.min(Integer.MAX_VALUE,
      Math.max(floor, estimate.bytes(key, value)));
    return builder.maximumWeight(bytes).weigher(weigher);
  }

  /** Publishes the cache's weight and its bound as {@code sidecar.cache.weight} / {@code .max} (bytes, tag cache). */
  public void gauge(MeterRegistry registry, Cache<?, ?> cache) {
    Gauge.builder("sidecar.cache.weight", cache,
      c -> c.policy().eviction().flatMap(e -> {
        var weighted = e.weightedSize();
        return weighted.isPresent() ? java.util.Optional.of(weighted.getAsLong()) : java.util.Optional.empty();
      }).orElse(0L))
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
