package io.aqueduct.http.rest;

import io.aqueduct.api.AqException;
import io.aqueduct.api.QueueSession;
import io.aqueduct.http.HttpAccess;
import io.aqueduct.http.HttpAccessException;
import io.aqueduct.http.HttpUser;
import io.aqueduct.http.transaction.HeldTransaction;
import jakarta.json.JsonException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.Response;
import java.util.function.BiFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs one REST request's queue work. Without {@code ?transaction=}, in a session of its own committed when the
 * work succeeded (each request its own transaction). With it, in that held transaction, left open for its commit or
 * rollback. A refused operation (an AqException: it changed nothing) leaves a held transaction as it was; an
 * unexpected failure rolls it back.
 */
final class RestWork {
    private static final Logger LOG = Logger.getLogger(RestWork.class.getName());

    private RestWork() {
    }

    static Response run(HttpServletRequest request, String transaction, BiFunction<QueueSession, HttpUser, Response> work) {
        HttpAccess access = HttpAccess.of(request.getServletContext());
        try {
            HttpUser user = access.users().of(request);
            if (transaction == null) {
                try (QueueSession session = access.openSession(user)) {
                    Response response = work.apply(session, user);
                    session.commit();
                    return response;
                }
            }
            HeldTransaction held = access.transactions().acquire(transaction, user.name());
            try {
                Response response = held.run(session -> work.apply(session, user));
                access.transactions().release(held);
                return response;
            } catch (AqException | JsonException | ClassCastException e) {
                access.transactions().release(held);
                throw e;
            } catch (RuntimeException e) {
                access.transactions().end(held, false);
                throw new IllegalStateException("transaction " + transaction + " was rolled back: " + e, e);
            }
        } catch (HttpAccessException e) {
            return RestErrors.of(e);
        } catch (AqException e) {
            return RestErrors.of(e);
        } catch (JsonException | ClassCastException e) {
            return RestErrors.badRequest("The request body is not the JSON this operation takes: " + e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Aqueduct HTTP: a REST request failed", e);
            return RestErrors.json(500, 0, "The operation failed: " + e);
        }
    }
}
