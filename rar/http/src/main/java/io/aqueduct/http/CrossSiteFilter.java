package io.aqueduct.http;

import io.aqueduct.api.AqError;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Refuses (403) a request a browser sends on behalf of another site's page. A browser keeps BASIC credentials and
 * sends them with every request to this server, also when a page of another site posts a form or calls fetch():
 * without this check such a page could enqueue, dequeue or commit as the user (cross-site request forgery). Browsers
 * name the page's origin in the {@code Origin} header of every cross-origin POST, PUT and DELETE; a request whose
 * Origin is not this server's own is refused. Clients that are not browsers (curl, an HTTP library, another server)
 * send no Origin and are not affected.
 */
@WebFilter(filterName = "CrossSite", urlPatterns = {"/aqserv/*", "/api/*"})
public final class CrossSiteFilter extends HttpFilter {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String origin = request.getHeader("Origin");
        if (origin != null && !sameOrigin(origin, request)) {
            String sentence = "This request comes from a page of " + Faults.escape(origin.length() > 100 ? origin.substring(0, 100) : origin)
                    + ", another site than this server: refused, so that no other site can use your login here.";
            response.setStatus(403);
            if (request.getServletPath().startsWith("/aqserv")) {
                response.setContentType("text/xml;charset=UTF-8");
                response.getOutputStream().write(Faults.soapFault(true, AqError.INVALID_VALUE, sentence).getBytes(StandardCharsets.UTF_8));
            } else {
                response.setContentType("application/json;charset=UTF-8");
                response.getOutputStream().write(Faults.json(AqError.INVALID_VALUE, sentence).getBytes(StandardCharsets.UTF_8));
            }
            return;
        }
        chain.doFilter(request, response);
    }

    private static boolean sameOrigin(String origin, HttpServletRequest request) {
        try {
            URI o = URI.create(origin.trim());
            if (o.getScheme() == null || o.getHost() == null) {
                return false; // "null" (a sandboxed page, a file) or malformed
            }
            int port = o.getPort() != -1 ? o.getPort() : "https".equalsIgnoreCase(o.getScheme()) ? 443 : 80;
            return o.getScheme().toLowerCase(Locale.ROOT).equals(request.getScheme().toLowerCase(Locale.ROOT))
                    && o.getHost().equalsIgnoreCase(request.getServerName()) && port == request.getServerPort();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
