package io.aqueduct.http.idap;

import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueSession;
import io.aqueduct.http.Faults;
import io.aqueduct.http.HttpAccessSettings;
import io.aqueduct.http.HttpUser;
import io.aqueduct.http.PayloadTypes;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/** One operation of a request: the session it works in, as whom, and the response document it writes into. */
final class IdapCall {
    final QueueSession session;
    final HttpUser user;
    final HttpAccessSettings settings;
    private final PayloadTypes payloadTypes;
    final Document response;

    IdapCall(QueueSession session, HttpUser user, HttpAccessSettings settings, PayloadTypes payloadTypes, Document response) {
        this.session = session;
        this.user = user;
        this.settings = settings;
        this.payloadTypes = payloadTypes;
        this.response = response;
    }

    PayloadType payloadType(String queue) {
        return payloadTypes.of(session, user.dbUser(), queue);
    }

    /** A new element in the AQ access namespace (unprefixed: the response's default namespace). */
    Element element(String name) {
        return response.createElementNS(Faults.AQ_NS, name);
    }

    Element element(String name, Object text) {
        Element e = element(name);
        e.setTextContent(String.valueOf(text));
        return e;
    }

    /** {@code <status_response><status_code>0</status_code></status_response>}: the operation succeeded. */
    Element ok() {
        Element status = element("status_response");
        status.appendChild(element("status_code", 0));
        return status;
    }
}
