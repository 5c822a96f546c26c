package io.aqueduct.engine.session;

/**
 * What a session does with propagation that arrives from another Aqueduct over HTTP: the request
 * as the sending engine wrote it, run in the session's transaction (the caller commits), and the
 * answer to send back. Propagation implements it; the engine gives it to every session.
 */
@FunctionalInterface
public interface PropagationReceiver {
    byte[] receive(EngineSession session, byte[] request);
}
