package io.aqueduct.jms.client;

import org.assertj.core.api.SoftAssertions;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

import java.util.LinkedHashMap;
import java.util.Map;

/** Named calls that must each throw a given exception: all are tried, every failure is reported. */
final class Refusals {
    private final Map<String, ThrowingCallable> calls = new LinkedHashMap<>();

    static Refusals of() {
        return new Refusals();
    }

    Refusals call(String name, ThrowingCallable call) {
        calls.put(name, call);
        return this;
    }

    void allThrow(Class<? extends Throwable> type) {
        SoftAssertions softly = new SoftAssertions();
        calls.forEach((name, call) -> softly.assertThatThrownBy(call).as(name).isInstanceOf(type));
        softly.assertAll();
    }
}
