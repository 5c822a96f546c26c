package io.aqueduct.http.idap;

import io.aqueduct.http.HttpAccess;
import jakarta.servlet.annotation.WebListener;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionListener;

/** An HTTP session that ends (timed out, invalidated) takes its held transaction with it: rolled back. */
@WebListener
public final class IdapSessions implements HttpSessionListener {
    @Override
    public void sessionDestroyed(HttpSessionEvent event) {
        Object id = event.getSession().getAttribute(IdapServlet.HELD);
        HttpAccess access = HttpAccess.of(event.getSession().getServletContext());
        if (id != null && access != null) {
            access.transactions().abandon((String) id);
        }
    }
}
