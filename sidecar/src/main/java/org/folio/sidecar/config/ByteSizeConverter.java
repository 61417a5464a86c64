package org.folio.sidecar.config;

import io.quarkus.runtime.configuration.MemorySizeConverter;
import org.eclipse.microprofile.config.spi.Converter;

/** A size in bytes, written as Quarkus writes memory sizes ({@code 1048576}, {@code 10240K}, {@code 1G}). */
public class ByteSizeConverter implements Converter<Long> {

  private static final MemorySizeConverter SIZES = new MemorySizeConverter();

  @Override
  public Long convert(String value) {
    return SIZES.convert(value.trim()).asLongValue();
  }
}
