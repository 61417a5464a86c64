package org.folio.sidecar.events;

/** Applies one parsed platform event; the consumer counts what it returns and survives what it throws. */
@FunctionalInterface
interface EventHandler {

  /** Returns the outcome counted in {@code sidecar_events_total}: {@code applied} or {@code ignored}. */
  String apply(PlatformEvent event);
}
