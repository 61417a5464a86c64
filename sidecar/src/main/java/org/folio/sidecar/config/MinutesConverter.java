package org.folio.sidecar.config;

import io.quarkus.runtime.configuration.DurationConverter;
import java.time.Duration;
import org.eclipse.microprofile.config.spi.Converter;

/**
 * Upstream's JWKS intervals are whole minutes ({@code KC_JWKS_REFRESH_INTERVAL=60}); Quarkus would read a bare
 * number as seconds. A bare number here is minutes; anything else is read as any other duration.
 */
public class MinutesConverter implements Converter<Duration> {

  private static final DurationConverter DURATIONS = new DurationConverter();

  @Override
  public Duration convert(String value) {
    var trimmed = value.trim();
    if (!trimmed.isEmpty() && trimmed.chars().allMatch(Character::isDigit)) {
      return Duration.ofMinutes(Long.parseLong(trimmed));
    }
    return DURATIONS.convert(trimmed);
  }
}
