package io.aqueduct.console;

import jakarta.json.Json;
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
 * Cross-site request forgery: the browser sends the administrator's credentials with every request to this server,
 * also when another site's page posts a form or calls fetch(). Every request of the JSON API that changes something
 * (not GET / HEAD) must carry the header {@value #HEADER} — a page of another origin cannot set a custom header
 * without the CORS preflight this server never grants — and, when the browser names the page's origin, come from
 * this server's own. Otherwise 403 and nothing happens.
 */
@WebFilter(filterName = "ConsoleSameOrigin", urlPatterns = "/api/*")
public final class SameOriginFilter extends HttpFilter {
    private static final long serialVersionUID = 1L;
    public static final String HEADER = "X-Aqueduct-Console";
    private static final int INVALID_VALUE = 24097;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String origin = request.getHeader("Origin");
        boolean reading = "GET".equals(request.getMethod()) || "HEAD".equals(request.getMethod());
        if (origin != null && !sameOrigin(origin, request) || !reading && request.getHeader(HEADER) == null) {
            response.setStatus(403);
            response.setContentType("application/json;charset=UTF-8");
            response.getOutputStream().write(Json.createObjectBuilder().add("error", INVALID_VALUE)
                    .add("message", "This request does not come from the console's own page: refused, so that no other"
                            + " site can use your login here.").build().toString().getBytes(StandardCharsets.UTF_8));
            return;
        }
        // the API's answers are the administrator's view of the queues: never kept by a shared cache
        response.setHeader("Cache-Control", "no-store");
        chain.doFilter(request, response);
    }

    static boolean sameOrigin(String origin, HttpServletRequest request) {
        try {
            URI o = URI.create(origin.trim());
            if (o.getScheme() == null || o.getHost() == null) {
                return false;
            }
            int port = o.getPort() != -1 ? o.getPort() : "https".equalsIgnoreCase(o.getScheme()) ? 443 : 80;
            return o.getScheme().toLowerCase(Locale.ROOT).equals(request.getScheme().toLowerCase(Locale.ROOT))
                    && o.getHost().equalsIgnoreCase(request.getServerName()) && port == request.getServerPort();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
