package io.aqueduct.http;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Refuses a request body larger than {@code io.aqueduct.http.maxBodyBytes} with 413 before any of it is parsed: at
 * once when its Content-Length says so, otherwise (a chunked body) as soon as more than the limit has arrived. The
 * body is read here, at most limit + 1 bytes, and handed on from memory. The answer is a SOAP fault on the XML
 * servlet's path and a JSON error on the REST API's.
 */
@WebFilter(filterName = "BodyLimit", urlPatterns = {"/aqserv/*", "/api/*"})
public final class BodyLimitFilter extends HttpFilter {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long max = HttpAccess.of(request.getServletContext()).settings().maxBodyBytes();
        long declared = request.getContentLengthLong();
        if (declared > max) {
            refuse(request, response, "The request body has " + declared + " bytes; at most " + max + " are accepted.");
            return;
        }
        byte[] body = readAtMost(request.getInputStream(), max + 1);
        if (body.length > max) {
            refuse(request, response, "The request body has more than " + max + " bytes; at most " + max + " are accepted.");
            return;
        }
        chain.doFilter(new Buffered(request, body), response);
    }

    private static byte[] readAtMost(InputStream in, long limit) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        int n;
        while (out.size() < limit && (n = in.read(buffer, 0, (int) Math.min(buffer.length, limit - out.size()))) > 0) {
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    private static void refuse(HttpServletRequest request, HttpServletResponse response, String sentence) throws IOException {
        // the rest of an oversized body is not read: the connection closes rather than carrying it
        response.setHeader("Connection", "close");
        response.setStatus(HttpAccessException.TOO_LARGE);
        String path = request.getServletPath();
        if (path.startsWith("/aqserv")) {
            response.setContentType("text/xml;charset=UTF-8");
            response.getOutputStream().write(Faults.soapFault(true, io.aqueduct.api.AqError.INVALID_VALUE, sentence)
                    .getBytes(StandardCharsets.UTF_8));
        } else {
            response.setContentType("application/json;charset=UTF-8");
            response.getOutputStream().write(Faults.json(io.aqueduct.api.AqError.INVALID_VALUE, sentence)
                    .getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The request with its body read into memory. */
    private static final class Buffered extends HttpServletRequestWrapper {
        private final byte[] body;

        Buffered(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new IllegalStateException("The body is already read: use blocking reads.");
                }
            };
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }

        @Override
        public java.io.BufferedReader getReader() {
            String encoding = getCharacterEncoding() == null ? "UTF-8" : getCharacterEncoding();
            return new java.io.BufferedReader(new java.io.InputStreamReader(new ByteArrayInputStream(body),
                    java.nio.charset.Charset.forName(encoding)));
        }
    }
}
