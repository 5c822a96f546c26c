package io.aqueduct.http.idap;

import static io.aqueduct.http.idap.Elements.all;
import static io.aqueduct.http.idap.Elements.children;
import static io.aqueduct.http.idap.Elements.choice;
import static io.aqueduct.http.idap.Elements.integer;
import static io.aqueduct.http.idap.Elements.number;
import static io.aqueduct.http.idap.Elements.optional;
import static io.aqueduct.http.idap.Elements.required;
import static io.aqueduct.http.idap.Elements.text;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.NotificationQos;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.Registration;
import io.aqueduct.api.Visibility;
import io.aqueduct.http.NotifyUrls;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.w3c.dom.Element;

/**
 * The operations of the AQ XML servlet, by their element names. Each reads its request element completely (a fault
 * for anything malformed) before it calls the queue session, so a refused request has changed nothing. Adding an
 * operation is one more entry in {@link #BY_NAME}.
 */
final class IdapOperations {
    /** What an operation element may hold besides its own elements: the end of the transaction. */
    static final Set<String> ENDINGS = Set.of("AQXmlCommit", "AQXmlRollback");

    interface Operation {
        /** Runs the request and returns the response element (AQXml...Response). */
        Element run(IdapCall call, Element request);
    }

    static final Map<String, Operation> BY_NAME = Map.of(
            "AQXmlSend", (call, request) -> send(call, request, "AQXmlSendResponse"),
            "AQXmlPublish", (call, request) -> send(call, request, "AQXmlPublishResponse"),
            "AQXmlReceive", IdapOperations::receive,
            "AQXmlRegister", IdapOperations::register,
            "AQXmlUnregister", IdapOperations::unregister,
            // alone, they only end the transaction (the servlet does that); their response says it went well
            "AQXmlCommit", (call, request) -> ended(call, request, "AQXmlCommitResponse"),
            "AQXmlRollback", (call, request) -> ended(call, request, "AQXmlRollbackResponse"));

    private IdapOperations() {
    }

    private static Set<String> with(String... names) {
        Set<String> s = new java.util.HashSet<>(ENDINGS);
        s.addAll(List.of(names));
        return s;
    }

    private static Element ended(IdapCall call, Element request, String responseName) {
        children(request, Set.of());
        Element response = call.element(responseName);
        response.appendChild(call.ok());
        return response;
    }

    // ------------------------------------------------------------------ AQXmlSend, AQXmlPublish

    private static Element send(IdapCall call, Element request, String responseName) {
        List<Element> parts = children(request, with("producer_options", "message_set"));
        Element producer = required(parts, request, "producer_options");
        List<Element> po = children(producer, Set.of("destination", "visibility", "transformation"));
        String destination = requiredText(po, producer, "destination");
        EnqueueOptions options = EnqueueOptions.create()
                .visibility(choice(po, producer, "visibility", Visibility.class))
                .transformation(text(po, producer, "transformation"));

        Element set = required(parts, request, "message_set");
        List<Element> setParts = children(set, Set.of("message_count", "message"));
        List<Element> messages = all(setParts, "message");
        Integer count = integer(setParts, set, "message_count");
        if (messages.isEmpty()) {
            throw new IdapRequestException("<message_set> holds no <message>.");
        }
        if (count != null && count != messages.size()) {
            throw new IdapRequestException("<message_count> says " + count + " and <message_set> holds " + messages.size()
                    + " messages.");
        }
        if (messages.size() > call.settings.maxBatch()) {
            throw new IdapRequestException("<message_set> holds " + messages.size() + " messages; at most "
                    + call.settings.maxBatch() + " go in one request.");
        }
        PayloadType type = call.payloadType(destination);
        if (type == PayloadType.OBJECT) {
            throw IdapPayloads.objectQueue(destination);
        }
        List<Message> toSend = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            toSend.add(message(messages.get(i), i + 1, type, destination, call.user.sender()));
        }
        List<MessageId> ids = toSend.size() == 1 ? List.of(call.session.enqueue(destination, options, toSend.get(0)))
                : call.session.enqueueArray(destination, options, toSend);

        Element response = call.element(responseName);
        response.appendChild(call.ok());
        Element result = call.element(responseName.equals("AQXmlPublishResponse") ? "publish_result" : "send_result");
        result.appendChild(call.element("destination", destination));
        for (MessageId id : ids) {
            result.appendChild(call.element("message_id", id));
        }
        response.appendChild(result);
        return response;
    }

    /** {@code sender}: the sender_id of a message that gives none (the request's agent). */
    private static Message message(Element message, int position, PayloadType type, String destination, Agent sender) {
        List<Element> parts = children(message, Set.of("message_number", "message_header", "message_payload"));
        Integer number = integer(parts, message, "message_number");
        if (number != null && number != position) {
            throw new IdapRequestException("<message_number> " + number + " is message " + position + " of the set:"
                    + " number the messages 1, 2, ... in order.");
        }
        MessageProperties properties = MessageProperties.create().sender(sender);
        Element header = optional(parts, message, "message_header");
        if (header != null) {
            List<Element> h = children(header, Set.of("correlation", "priority", "delay", "expiration", "exception_queue",
                    "sender_id", "recipient_list"));
            properties.correlation(text(h, header, "correlation"));
            Integer priority = integer(h, header, "priority");
            if (priority != null) {
                properties.priority(priority);
            }
            Long delay = number(h, header, "delay");
            if (delay != null) {
                properties.delay(delay);
            }
            Long expiration = number(h, header, "expiration");
            if (expiration != null) {
                properties.expiration(expiration);
            }
            properties.exceptionQueue(text(h, header, "exception_queue"));
            Element senderId = optional(h, header, "sender_id");
            if (senderId != null) {
                properties.sender(agent(senderId));
            }
            Element recipients = optional(h, header, "recipient_list");
            if (recipients != null) {
                List<Agent> list = new ArrayList<>();
                for (Element r : children(recipients, Set.of("recipient"))) {
                    list.add(agent(r));
                }
                if (list.isEmpty()) {
                    throw new IdapRequestException("<recipient_list> holds no <recipient>.");
                }
                properties.recipients(list);
            }
        }
        Element payload = required(parts, message, "message_payload");
        return Message.of(IdapPayloads.read(payload, type, destination), properties);
    }

    private static Agent agent(Element e) {
        List<Element> a = children(e, Set.of("agent_name", "address", "protocol"));
        Integer protocol = integer(a, e, "protocol");
        String name = text(a, e, "agent_name");
        String address = text(a, e, "address");
        if (name == null && address == null) {
            throw new IdapRequestException("<" + e.getLocalName() + "> needs an <agent_name> or an <address>.");
        }
        return new Agent(name, address, protocol == null ? 0 : protocol);
    }

    // ------------------------------------------------------------------ AQXmlReceive

    private static Element receive(IdapCall call, Element request) {
        List<Element> parts = children(request, with("consumer_options"));
        Element consumer = required(parts, request, "consumer_options");
        List<Element> co = children(consumer, Set.of("destination", "consumer_name", "wait_time", "selector", "navigation",
                "dequeue_mode", "visibility", "transformation", "batch_size"));
        String destination = requiredText(co, consumer, "destination");
        DequeueOptions options = DequeueOptions.create()
                .consumerName(text(co, consumer, "consumer_name"))
                .navigation(choice(co, consumer, "navigation", Navigation.class))
                .mode(choice(co, consumer, "dequeue_mode", DequeueMode.class))
                .visibility(choice(co, consumer, "visibility", Visibility.class))
                .transformation(text(co, consumer, "transformation"));
        Long wait = number(co, consumer, "wait_time");
        // AQ's default and -1 wait forever; over HTTP a wait holds a request thread, so it is capped
        long max = call.settings.maxWaitSeconds();
        options.waitSeconds(wait == null || wait < 0 || wait > max ? max : wait);
        Element selector = optional(co, consumer, "selector");
        if (selector != null) {
            List<Element> s = children(selector, Set.of("correlation", "message_id", "condition"));
            options.correlation(text(s, selector, "correlation"));
            String id = text(s, selector, "message_id");
            if (id != null) {
                options.messageId(MessageId.parse(id));
            }
            options.condition(text(s, selector, "condition"));
        }
        Integer batch = integer(co, consumer, "batch_size");
        if (batch != null && (batch < 1 || batch > call.settings.maxBatch())) {
            throw new IdapRequestException("<batch_size> is " + batch + "; it is 1 to " + call.settings.maxBatch() + ".");
        }
        PayloadType type = call.payloadType(destination);
        if (type == PayloadType.OBJECT) {
            throw IdapPayloads.objectQueue(destination);
        }

        List<Message> received;
        if (batch == null || batch == 1) {
            try {
                received = List.of(call.session.dequeue(destination, options));
            } catch (AqException e) {
                if (e.errorCode() != AqError.NO_MESSAGE) {
                    throw e;
                }
                received = List.of();
            }
        } else {
            received = call.session.dequeueArray(destination, options, batch);
        }

        Element response = call.element("AQXmlReceiveResponse");
        response.appendChild(call.ok());
        Element result = call.element("receive_result");
        result.appendChild(call.element("destination", destination));
        Element set = call.element("message_set");
        set.appendChild(call.element("message_count", received.size()));
        int n = 0;
        for (Message m : received) {
            set.appendChild(message(call, m, ++n, type));
        }
        result.appendChild(set);
        response.appendChild(result);
        return response;
    }

    // ------------------------------------------------------------------ AQXmlRegister, AQXmlUnregister

    /**
     * DBMS_AQ.REGISTER: {@code register_options} with {@code destination}, {@code consumer_name} (multi-consumer
     * queues), {@code notify_url}, and Aqueduct's {@code context} (base64), {@code qos} (RELIABLE, PAYLOAD, JSON; one
     * per element) and {@code timeout} (seconds, 0 none). The engine refuses it (1031) without DEQUEUE on the queue.
     * A registration commits on its own, whatever the request's AQXmlCommit / AQXmlRollback.
     */
    private static Element register(IdapCall call, Element request) {
        List<Element> parts = children(request, with("register_options"));
        Element options = required(parts, request, "register_options");
        List<Element> ro = children(options, Set.of("destination", "consumer_name", "notify_url", "context", "qos", "timeout"));
        Registration r = registration(ro, options);
        String context = text(ro, options, "context");
        if (context != null) {
            try {
                r.context(java.util.Base64.getDecoder().decode(context));
            } catch (IllegalArgumentException e) {
                throw new IdapRequestException("<context> must be base64: " + e.getMessage() + ".");
            }
        }
        for (Element q : Elements.all(ro, "qos")) {
            String flag = Elements.text(q);
            r.qos(java.util.Arrays.stream(NotificationQos.values()).filter(v -> v.name().equalsIgnoreCase(flag)).findFirst()
                    .orElseThrow(() -> new IdapRequestException("<qos> is '" + Elements.abbreviate(flag) + "'; it is one of "
                            + java.util.Arrays.toString(NotificationQos.values()) + ".")));
        }
        Long timeout = number(ro, options, "timeout");
        if (timeout != null) {
            r.timeoutSeconds(timeout);
        }
        call.session.register(r);
        Element response = call.element("AQXmlRegisterResponse");
        response.appendChild(call.ok());
        return response;
    }

    /** DBMS_AQ.UNREGISTER: the {@code register_options} destination, consumer_name and notify_url name the registration. */
    private static Element unregister(IdapCall call, Element request) {
        List<Element> parts = children(request, with("register_options"));
        Element options = required(parts, request, "register_options");
        List<Element> ro = children(options, Set.of("destination", "consumer_name", "notify_url"));
        call.session.unregister(registration(ro, options));
        Element response = call.element("AQXmlUnregisterResponse");
        response.appendChild(call.ok());
        return response;
    }

    private static Registration registration(List<Element> ro, Element options) {
        return Registration.forQueue(requiredText(ro, options, "destination"))
                .consumer(text(ro, options, "consumer_name"))
                .notifyUrl(NotifyUrls.checked(Elements.text(required(ro, options, "notify_url"))));
    }

    private static Element message(IdapCall call, Message m, int number, PayloadType type) {
        Element message = call.element("message");
        message.appendChild(call.element("message_number", number));
        Element header = call.element("message_header");
        MessageProperties p = m.properties();
        header.appendChild(call.element("message_id", m.id()));
        if (p.correlation() != null) {
            header.appendChild(call.element("correlation", p.correlation()));
        }
        header.appendChild(call.element("priority", p.priority()));
        header.appendChild(call.element("delivery_count", p.attempts()));
        if (p.sender() != null) {
            header.appendChild(agent(call, "sender_id", p.sender()));
        }
        if (p.exceptionQueue() != null) {
            header.appendChild(call.element("exception_queue", p.exceptionQueue()));
        }
        if (p.enqueueTime() != null) {
            header.appendChild(call.element("enqueue_time", p.enqueueTime()));
        }
        if (p.originalMessageId() != null) {
            header.appendChild(call.element("original_msgid", p.originalMessageId()));
        }
        if (p.state() != null) {
            header.appendChild(call.element("message_state", p.state().code()));
        }
        message.appendChild(header);
        if (m.payload() != null) {
            Element payload = call.element("message_payload");
            IdapPayloads.write(call, payload, type, m.payload());
            message.appendChild(payload);
        }
        return message;
    }

    private static Element agent(IdapCall call, String name, Agent a) {
        Element e = call.element(name);
        if (a.name() != null) {
            e.appendChild(call.element("agent_name", a.name()));
        }
        if (a.address() != null) {
            e.appendChild(call.element("address", a.address()));
        }
        if (a.protocol() != 0) {
            e.appendChild(call.element("protocol", a.protocol()));
        }
        return e;
    }

    private static String requiredText(List<Element> children, Element parent, String name) {
        String t = Elements.text(required(children, parent, name));
        if (t.isEmpty()) {
            throw new IdapRequestException("<" + name + "> is empty: name the queue ([schema.]name).");
        }
        return t;
    }
}
