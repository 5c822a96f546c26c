package io.aqueduct.http.idap;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.QueueSession;
import io.aqueduct.http.HttpAccess;
import io.aqueduct.http.HttpAccessException;
import io.aqueduct.http.HttpUser;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * AQ's propagation servlet (AQPropServlet at aqserv/servlet): another Aqueduct's propagation POSTs its
 * batches here as {@value #CONTENT_TYPE}. Each request runs in one transaction of this server's store,
 * as the agent's database user, and is committed before the answer leaves: a lost answer makes the
 * source roll back and ask again, and the receipts written with the messages keep them from arriving
 * twice. A refusal is answered with the AQ error's number in {@value #ERROR_HEADER} and its text as the
 * body, and nothing of the request stays.
 */
final class PropagationRequests {
    static final String CONTENT_TYPE = "application/vnd.aqueduct.propagation";
    static final String ERROR_HEADER = "X-Aqueduct-Error";
    private static final Logger LOG = Logger.getLogger(PropagationRequests.class.getName());
    private static final String STORE_SENTENCE = "The propagation request failed in this server's store and was rolled"
            + " back; its log has the cause. The source tries again after its back-off.";

    private PropagationRequests() {
    }

    static boolean accepts(HttpServletRequest request) {
        String type = request.getContentType();
        return type != null && type.toLowerCase(Locale.ROOT).startsWith(CONTENT_TYPE);
    }

    static void serve(HttpServletRequest request, HttpServletResponse response, HttpAccess access) throws IOException {
        HttpUser user;
        try {
            user = access.users().of(request);
        } catch (HttpAccessException e) {
            refuse(response, e.status(), e.errorCode(), e.getMessage());
            return;
        }
        byte[] body = request.getInputStream().readAllBytes(); // BodyLimitFilter has bounded it
        byte[] answer;
        try (QueueSession session = access.openSession(user)) {
            try {
                answer = session.receivePropagation(body);
                session.commit();
            } catch (RuntimeException e) {
                try {
                    session.rollback();
                } catch (RuntimeException r) {
                    e.addSuppressed(r);
                }
                throw e;
            }
        } catch (AqException e) {
            int status = status(e.errorCode());
            if (status >= 500) {
                // the store's own failure: its text (SQL, driver) stays in this server's log
                LOG.log(Level.WARNING, "Aqueduct HTTP: propagation from " + user.name() + " failed in the store", e);
                refuse(response, status, e.errorCode(), STORE_SENTENCE);
            } else {
                LOG.log(Level.FINE, "Aqueduct HTTP: propagation from " + user.name() + " refused", e);
                refuse(response, status, e.errorCode(), e.getMessage());
            }
            return;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Aqueduct HTTP: propagation from " + user.name() + " failed", e);
            refuse(response, 500, AqError.STORE_FAILURE, STORE_SENTENCE);
            return;
        }
        response.setStatus(200);
        response.setContentType(CONTENT_TYPE);
        response.setContentLength(answer.length);
        response.getOutputStream().write(answer);
    }

    private static int status(int errorCode) {
        return switch (errorCode) {
            case AqError.INSUFFICIENT_PRIVILEGES, AqError.AGENT_NOT_FOUND, AqError.AGENT_NOT_MAPPED -> 403;
            case AqError.INVALID_VALUE -> 400;
            case AqError.ENQUEUE_DISABLED -> 409; // the way is blocked: the source backs off and tries again
            case AqError.STORE_UNAVAILABLE -> 503;
            case AqError.STORE_FAILURE, AqError.OUT_OF_MEMORY -> 500;
            default -> 409;
        };
    }

    private static void refuse(HttpServletResponse response, int status, int errorCode, String sentence) throws IOException {
        response.setStatus(status);
        response.setHeader(ERROR_HEADER, String.valueOf(errorCode));
        response.setContentType("text/plain;charset=UTF-8");
        response.getOutputStream().write(String.valueOf(sentence).getBytes(StandardCharsets.UTF_8));
    }
}
