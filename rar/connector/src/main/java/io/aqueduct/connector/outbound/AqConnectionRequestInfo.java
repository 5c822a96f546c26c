package io.aqueduct.connector.outbound;

import jakarta.resource.spi.ConnectionRequestInfo;

/** The user an application asked a session for. */
record AqConnectionRequestInfo(String user) implements ConnectionRequestInfo {
}
