package org.folio.sidecar.token;

/**
 * The realms of tenants entitled to this module (a FOLIO tenant's realm has its name). Their keys are fetched
 * whenever a token needs them, outside the budgets that bound realm names taken from tokens not yet verified.
 */
public interface EntitledRealms {

  boolean entitled(String realm);
}
