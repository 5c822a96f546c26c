package io.aqueduct.engine.notification;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqNotification;
import io.aqueduct.api.MessageProperties;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The bodies of HTTP and mail notifications. XML: AQ's AQXmlNotification envelope as the AQ XML
 * servlet sends it (IDAP envelope namespace {@value #ENVELOPE_NS}, AQ access namespace
 * {@value #ACCESS_NS}), message_header as AQ's; Aqueduct adds {@code consumer_name} and
 * {@code notification_flags} (NTFN_FLAGS) to notification_options, {@code message_payload} when the
 * registration asked for it, and the registration's context (base64) as {@code context}. JSON: the
 * same fields as one object.
 */
final class Envelopes {
    static final String ENVELOPE_NS = "http://www.oracle.com/schemas/IDAP/envelope";
    static final String ACCESS_NS = "http://www.oracle.com/schemas/AQ/access";

    private Envelopes() {
    }

    static String xml(AqNotification n) {
        StringBuilder b = new StringBuilder(512);
        b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        b.append("<Envelope xmlns=\"").append(ENVELOPE_NS).append("\">\n  <Body>\n");
        b.append("    <AQXmlNotification xmlns=\"").append(ACCESS_NS).append("\">\n");
        b.append("      <notification_options>\n");
        element(b, 8, "destination", n.queue());
        element(b, 8, "consumer_name", n.consumer());
        element(b, 8, "notification_flags", String.valueOf(n.flags()));
        if (n.context() != null) {
            element(b, 8, "context", Base64.getEncoder().encodeToString(n.context()));
        }
        b.append("      </notification_options>\n");
        if (n.messageId() != null) {
            MessageProperties p = n.properties();
            b.append("      <message_set>\n        <message>\n          <message_header>\n");
            element(b, 12, "message_id", n.messageId().toString());
            element(b, 12, "correlation", p.correlation());
            element(b, 12, "priority", String.valueOf(p.priority()));
            element(b, 12, "delay", String.valueOf(p.delay()));
            element(b, 12, "expiration", String.valueOf(p.expiration()));
            element(b, 12, "delivery_count", String.valueOf(p.attempts()));
            element(b, 12, "exception_queue", p.exceptionQueue());
            if (p.sender() != null) {
                b.append("            <sender_id>\n");
                element(b, 14, "agent_name", p.sender().name());
                element(b, 14, "agent_address", p.sender().address());
                element(b, 14, "agent_protocol", String.valueOf(p.sender().protocol()));
                b.append("            </sender_id>\n");
            }
            if (p.recipients() != null && !p.recipients().isEmpty()) {
                b.append("            <recipient_list>\n");
                for (Agent a : p.recipients()) {
                    b.append("              <recipient>\n");
                    element(b, 16, "agent_name", a.name());
                    element(b, 16, "agent_address", a.address());
                    b.append("              </recipient>\n");
                }
                b.append("            </recipient_list>\n");
            }
            element(b, 12, "message_state", p.state() == null ? null : String.valueOf(stateCode(p)));
            element(b, 12, "enqueue_time", p.enqueueTime() == null ? null : p.enqueueTime().toString());
            element(b, 12, "original_msgid", p.originalMessageId() == null ? null : p.originalMessageId().toString());
            b.append("          </message_header>\n");
            if (n.payload() != null) {
                element(b, 10, "message_payload", payloadText(n.payload()));
            }
            b.append("        </message>\n      </message_set>\n");
        }
        b.append("    </AQXmlNotification>\n  </Body>\n</Envelope>\n");
        return b.toString();
    }

    static String json(AqNotification n) {
        StringBuilder b = new StringBuilder(256).append('{');
        field(b, "destination", n.queue());
        field(b, "consumer_name", n.consumer());
        b.append("\"notification_flags\":").append(n.flags());
        if (n.context() != null) {
            b.append(',');
            field(b, "context", Base64.getEncoder().encodeToString(n.context()));
            b.setLength(b.length() - 1);
        }
        if (n.messageId() != null) {
            MessageProperties p = n.properties();
            b.append(",\"message_header\":{");
            field(b, "message_id", n.messageId().toString());
            field(b, "correlation", p.correlation());
            b.append("\"priority\":").append(p.priority()).append(',');
            b.append("\"delay\":").append(p.delay()).append(',');
            b.append("\"expiration\":").append(p.expiration()).append(',');
            b.append("\"delivery_count\":").append(p.attempts()).append(',');
            field(b, "exception_queue", p.exceptionQueue());
            field(b, "sender_name", p.sender() == null ? null : p.sender().name());
            field(b, "sender_address", p.sender() == null ? null : p.sender().address());
            field(b, "enqueue_time", p.enqueueTime() == null ? null : p.enqueueTime().toString());
            field(b, "original_msgid", p.originalMessageId() == null ? null : p.originalMessageId().toString());
            b.append("\"message_state\":").append(p.state() == null ? "null" : String.valueOf(stateCode(p)));
            b.append('}');
            if (n.payload() != null) {
                b.append(",\"message_payload\":");
                quote(b, payloadText(n.payload()));
            }
        }
        return b.append('}').toString();
    }

    /** AQ's message_state numbers: 0 READY, 1 WAITING, 2 PROCESSED, 3 EXPIRED. */
    private static int stateCode(MessageProperties p) {
        return p.state().code();
    }

    /** Text payloads as they are; RAW ones base64; anything else as its text form. */
    static String payloadText(Object payload) {
        if (payload instanceof byte[] bytes) {
            return Base64.getEncoder().encodeToString(bytes);
        }
        return String.valueOf(payload);
    }

    private static void element(StringBuilder b, int indent, String name, String value) {
        if (value == null) {
            return;
        }
        b.append(" ".repeat(indent)).append('<').append(name).append('>');
        escape(b, value);
        b.append("</").append(name).append(">\n");
    }

    private static void escape(StringBuilder b, String s) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&apos;");
                default -> {
                    if (ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') {
                        b.append("&#xFFFD;"); // not allowed in XML 1.0
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
    }

    private static void field(StringBuilder b, String name, String value) {
        if (value == null) {
            return;
        }
        quote(b, name);
        b.append(':');
        quote(b, value);
        b.append(',');
    }

    private static void quote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (ch < 0x20) {
                        b.append(String.format("\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
        b.append('"');
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
