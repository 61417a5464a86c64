package org.folio.sidecar.error;

import com.github.benmanes.caffeine.cache.Ticker;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * One dependency's availability as its calls or probes see it: the loss is one WARN line and the return one INFO
 * line, whatever the number of failed calls in between (docs/runbooks.md cites both lines). The first answer after
 * start-up is logged only when it is a failure.
 */
public final class Availability {

  private static final Logger LOGGER = Logger.getLogger(Availability.class);
  private static final long UNKNOWN = Long.MIN_VALUE;
  private static final long UP = Long.MIN_VALUE + 1;

  private final String lost;
  private final String back;
  private final Ticker ticker;
  private final AtomicLong downSince = new AtomicLong(UNKNOWN);

  /**
   * The lines in full at the caller, so that the line a runbook cites is found by a search of the code:
   * {@code lost} with one {@code %s} (the cause), {@code back} with one {@code %d} (the seconds it was lost).
   */
  public Availability(String lost, String back, Ticker ticker) {
    this.lost = lost;
    this.back = back;
    this.ticker = ticker;
  }

  /** A call or probe that succeeded. */
  public void up() {
    long since = downSince.getAndSet(UP);
    if (since != UP && since != UNKNOWN) {
      LOGGER.infof(back, TimeUnit.NANOSECONDS.toSeconds(ticker.read() - since));
    }
  }

  /** A failed call or probe; {@code cause} says what failed, never with a secret or a token. */
  public void down(String cause) {
    long now = ticker.read();
    long since = downSince.get();
    if ((since == UP || since == UNKNOWN) && downSince.compareAndSet(since, now)) {
      LOGGER.warnf(lost, cause);
    }
  }
}
