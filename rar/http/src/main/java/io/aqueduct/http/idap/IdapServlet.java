package io.aqueduct.http.idap;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.QueueSession;
import io.aqueduct.http.Faults;
import io.aqueduct.http.HttpAccess;
import io.aqueduct.http.HttpAccessException;
import io.aqueduct.http.HttpUser;
import io.aqueduct.http.transaction.HeldTransaction;
import io.aqueduct.http.transaction.HeldTransactions;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * The AQ XML servlet (IDAP) at AQ's fixed path {@code aqserv/servlet}: a SOAP 1.1 envelope POSTed in, its body one
 * operation of namespace {@code http://ns.oracle.com/AQ/schemas/access} (AQXmlSend, AQXmlPublish, AQXmlReceive,
 * AQXmlRegister, AQXmlUnregister, AQXmlCommit, AQXmlRollback), the AQXml...Response or a SOAP fault out.
 *
 * <p>Transactions: an operation holding {@code <AQXmlCommit/>} (or {@code <AQXmlRollback/>}) ends its transaction.
 * Without one, the work stays in a transaction held for the HTTP session (its cookie) and the session's next
 * request continues it; one idle for the configured timeout is rolled back. A fault for a refused operation leaves
 * the transaction as it was (the operation changed nothing); an unexpected failure rolls it back.
 *
 * <p>It is also AQ's propagation servlet: requests of another Aqueduct's propagation over HTTP
 * ({@code application/vnd.aqueduct.propagation}) go to {@link PropagationRequests}.
 */
@WebServlet(name = "AQPropServlet", urlPatterns = "/aqserv/servlet")
public final class IdapServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(IdapServlet.class.getName());
    /** The HTTP session's attribute naming its held transaction. */
    static final String HELD = IdapServlet.class.getName() + ".transaction";
    private static final Set<String> ENVELOPE_NAMESPACES = Set.of(Faults.SOAP_NS,
            "http://www.oracle.com/schemas/IDAP/envelope");

    private enum Ending { COMMIT, ROLLBACK, NONE }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        HttpAccess access = HttpAccess.of(getServletContext());
        if (PropagationRequests.accepts(request)) {
            PropagationRequests.serve(request, response, access); // another Aqueduct's propagation (AQPropServlet)
            return;
        }
        HttpUser user;
        Element operationElement;
        IdapOperations.Operation operation;
        Ending ending;
        try {
            user = access.users().of(request);
            Document envelope = SafeXml.parse(request.getInputStream());
            operationElement = operationOf(envelope);
            operation = IdapOperations.BY_NAME.get(operationElement.getLocalName());
            ending = endingOf(operationElement);
        } catch (AqException e) {
            fault(response, e.errorCode() != 0 && e.errorCode() != AqError.STORE_UNAVAILABLE, e.errorCode(), e.getMessage());
            return;
        } catch (HttpAccessException e) {
            fault(response, true, e.errorCode(), e.getMessage());
            return;
        }

        Document out = SafeXml.newDocument();
        Element result;
        try {
            result = run(request, access, user, operation, operationElement, ending, out);
        } catch (HttpAccessException e) {
            fault(response, true, e.errorCode(), e.getMessage());
            return;
        } catch (AqException e) {
            fault(response, e.errorCode() != 0 && e.errorCode() != AqError.STORE_UNAVAILABLE, e.errorCode(), e.getMessage());
            return;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Aqueduct HTTP: " + operationElement.getLocalName() + " of " + user.name() + " failed", e);
            fault(response, false, 0, "The operation failed and its transaction was rolled back: " + e);
            return;
        }
        Element body = envelopeFor(out);
        body.appendChild(result);
        response.setStatus(200);
        response.setContentType("text/xml;charset=UTF-8");
        response.getOutputStream().write(SafeXml.serialize(out, true).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Runs the operation in the HTTP session's held transaction, or in a session of this request when it ends its
     * transaction, or else in a new held transaction the HTTP session keeps.
     */
    private Element run(HttpServletRequest request, HttpAccess access, HttpUser user, IdapOperations.Operation operation,
            Element operationElement, Ending ending, Document out) {
        HeldTransactions transactions = access.transactions();
        HttpSession httpSession = request.getSession(false);
        String heldId = httpSession == null ? null : (String) httpSession.getAttribute(HELD);
        if (heldId == null && ending != Ending.NONE) {
            try (QueueSession session = access.openSession(user)) {
                Element result = operation.run(new IdapCall(session, user, access.settings(), access.payloadTypes(), out),
                        operationElement);
                if (ending == Ending.COMMIT) {
                    session.commit();
                } else {
                    session.rollback();
                }
                return result;
            }
        }
        HeldTransaction held;
        boolean fresh = heldId == null;
        if (fresh) {
            held = transactions.begin(user.name(), () -> access.openSession(user));
        } else {
            try {
                held = transactions.acquire(heldId, user.name());
            } catch (HttpAccessException e) {
                if (e.status() != 409) {
                    httpSession.removeAttribute(HELD);
                }
                throw e;
            }
        }
        Element result;
        try {
            result = held.run(session -> operation.run(new IdapCall(session, user, access.settings(), access.payloadTypes(), out),
                    operationElement));
        } catch (AqException e) {
            // the operation changed nothing: a held transaction goes on; a new one has nothing to keep
            if (fresh) {
                transactions.end(held, false);
            } else {
                transactions.release(held);
            }
            throw e;
        } catch (RuntimeException e) {
            transactions.end(held, false);
            if (!fresh) {
                httpSession.removeAttribute(HELD);
            }
            throw e;
        }
        if (ending != Ending.NONE) {
            httpSession.removeAttribute(HELD);
            transactions.end(held, ending == Ending.COMMIT);
        } else {
            if (fresh) {
                request.getSession(true).setAttribute(HELD, held.id());
            }
            transactions.release(held);
        }
        return result;
    }

    /** Answers a GET (a browser, a probe) with what the path is for. */
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setStatus(405);
        response.setHeader("Allow", "POST");
        fault(response, 405, true, AqError.INVALID_VALUE, "The AQ XML servlet takes SOAP envelopes by POST (Content-Type text/xml).");
    }

    /** Envelope → Body → the one operation element, each checked. */
    private static Element operationOf(Document envelope) {
        Element root = envelope.getDocumentElement();
        if (!"Envelope".equals(root.getLocalName()) || root.getNamespaceURI() == null
                || !ENVELOPE_NAMESPACES.contains(root.getNamespaceURI())) {
            throw new IdapRequestException("The request's root element is <" + root.getLocalName() + ">"
                    + (root.getNamespaceURI() == null ? " without a namespace" : " in namespace " + root.getNamespaceURI())
                    + "; it must be a SOAP <Envelope> of namespace " + Faults.SOAP_NS + ".");
        }
        Element body = null;
        for (Element e : childElements(root)) {
            if ("Body".equals(e.getLocalName()) && root.getNamespaceURI().equals(e.getNamespaceURI())) {
                if (body != null) {
                    throw new IdapRequestException("The <Envelope> has two <Body> elements; give one.");
                }
                body = e;
            } else if (!"Header".equals(e.getLocalName())) {
                throw new IdapRequestException("The <Envelope> holds <" + e.getLocalName() + ">; it takes an optional <Header>"
                        + " and a <Body>.");
            }
        }
        if (body == null) {
            throw new IdapRequestException("The <Envelope> has no <Body>.");
        }
        List<Element> operations = childElements(body);
        if (operations.size() != 1) {
            throw new IdapRequestException("The <Body> holds " + operations.size() + " elements; give exactly one operation: "
                    + String.join(", ", IdapOperations.BY_NAME.keySet().stream().sorted().toList()) + ".");
        }
        Element op = operations.get(0);
        if (!Faults.AQ_NS.equals(op.getNamespaceURI()) || !IdapOperations.BY_NAME.containsKey(op.getLocalName())) {
            throw new IdapRequestException("<" + op.getLocalName() + ">"
                    + (Faults.AQ_NS.equals(op.getNamespaceURI()) ? "" : " (namespace " + op.getNamespaceURI() + ")")
                    + " is not an operation of this servlet; it takes "
                    + String.join(", ", IdapOperations.BY_NAME.keySet().stream().sorted().toList()) + " in namespace "
                    + Faults.AQ_NS + ".");
        }
        return op;
    }

    private static List<Element> childElements(Element parent) {
        List<Element> out = new java.util.ArrayList<>();
        for (org.w3c.dom.Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n.getNodeType() == org.w3c.dom.Node.ELEMENT_NODE) {
                out.add((Element) n);
            } else if (n.getNodeType() == org.w3c.dom.Node.TEXT_NODE && !n.getNodeValue().isBlank()) {
                throw new IdapRequestException("<" + parent.getLocalName() + "> holds text where elements belong.");
            }
        }
        return out;
    }

    /** The operation is itself AQXmlCommit / AQXmlRollback, or holds one (at most one of them). */
    private static Ending endingOf(Element op) {
        if (op.getLocalName().equals("AQXmlCommit")) {
            return Ending.COMMIT;
        }
        if (op.getLocalName().equals("AQXmlRollback")) {
            return Ending.ROLLBACK;
        }
        Ending ending = Ending.NONE;
        for (Element e : childElements(op)) {
            if (Faults.AQ_NS.equals(e.getNamespaceURI()) && IdapOperations.ENDINGS.contains(e.getLocalName())) {
                if (ending != Ending.NONE) {
                    throw new IdapRequestException("<" + op.getLocalName() + "> holds more than one of <AQXmlCommit> and"
                            + " <AQXmlRollback>; give one.");
                }
                ending = e.getLocalName().equals("AQXmlCommit") ? Ending.COMMIT : Ending.ROLLBACK;
            }
        }
        return ending;
    }

    private static Element envelopeFor(Document out) {
        Element envelope = out.createElementNS(Faults.SOAP_NS, "soap:Envelope");
        out.appendChild(envelope);
        Element body = out.createElementNS(Faults.SOAP_NS, "soap:Body");
        envelope.appendChild(body);
        return body;
    }

    private static void fault(HttpServletResponse response, boolean client, int code, String sentence) throws IOException {
        // SOAP 1.1 over HTTP: a fault is answered with 500
        fault(response, 500, client, code, sentence);
    }

    private static void fault(HttpServletResponse response, int status, boolean client, int code, String sentence)
            throws IOException {
        response.setStatus(status);
        response.setContentType("text/xml;charset=UTF-8");
        response.getOutputStream().write(Faults.soapFault(client, code, sentence).getBytes(StandardCharsets.UTF_8));
    }
}
