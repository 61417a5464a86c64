package org.folio.sidecar.events;

import static io.restassured.RestAssured.given;

import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.support.SidecarTestResource;
import org.junit.jupiter.api.Test;

/** Kafka is optional: without KAFKA_HOST the sidecar starts and serves. */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = @ResourceArg(name = "events.kafka-host", value = ""))
class WithoutKafkaTest {

  @Test
  void startsAndServesWithoutKafka() {
    given().header("x-okapi-tenant", "alpha").get("/public/info").then().statusCode(200);
    given().get("/admin/health/live").then().statusCode(200);
  }
}
