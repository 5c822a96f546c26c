package io.aqueduct.console;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;

class SameOriginFilterTest {

    @Test
    void onlyThePagesOfTheServersOwnOriginAreSameOrigin() {
        HttpServletRequest request = request("https", "console.example.com", 443);
        assertThat(SameOriginFilter.sameOrigin("https://console.example.com", request)).isTrue();
        assertThat(SameOriginFilter.sameOrigin("https://CONSOLE.example.com:443", request)).isTrue();
        assertThat(SameOriginFilter.sameOrigin("http://console.example.com", request)).as("another scheme").isFalse();
        assertThat(SameOriginFilter.sameOrigin("https://console.example.com:8443", request)).as("another port").isFalse();
        assertThat(SameOriginFilter.sameOrigin("https://evil.example.com", request)).isFalse();
        assertThat(SameOriginFilter.sameOrigin("https://console.example.com.evil.com", request)).isFalse();
        assertThat(SameOriginFilter.sameOrigin("null", request)).as("a sandboxed page or a file").isFalse();
        assertThat(SameOriginFilter.sameOrigin("::not a uri", request)).isFalse();
    }

    private static HttpServletRequest request(String scheme, String host, int port) {
        return (HttpServletRequest) Proxy.newProxyInstance(SameOriginFilterTest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getScheme" -> scheme;
                    case "getServerName" -> host;
                    case "getServerPort" -> port;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
