package io.aqueduct.http;

import jakarta.json.Json;

/** The two shapes of an error answer: a SOAP 1.1 fault for the XML servlet, a JSON object for the REST API. */
public final class Faults {
    public static final String SOAP_NS = "http://schemas.xmlsoap.org/soap/envelope/";
    public static final String AQ_NS = "http://ns.oracle.com/AQ/schemas/access";

    private Faults() {
    }

    /**
     * {@code <Fault>} with faultcode Client (the request is wrong) or Server, faultstring "AQ-nnnnn: sentence" and a
     * detail holding the AQ error number and the sentence.
     */
    public static String soapFault(boolean client, int errorCode, String sentence) {
        String text = errorCode == 0 ? sentence : String.format("AQ-%05d: %s", errorCode, stripCode(sentence));
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
                + "<soap:Envelope xmlns:soap=\"" + SOAP_NS + "\"><soap:Body><soap:Fault>"
                + "<faultcode>soap:" + (client ? "Client" : "Server") + "</faultcode>"
                + "<faultstring>" + escape(text) + "</faultstring>"
                + "<detail><aq:error xmlns:aq=\"" + AQ_NS + "\"><aq:error_code>" + errorCode + "</aq:error_code>"
                + "<aq:error_message>" + escape(stripCode(sentence)) + "</aq:error_message></aq:error></detail>"
                + "</soap:Fault></soap:Body></soap:Envelope>";
    }

    /** {@code {"error": <AQ number>, "message": "<sentence>"}}. */
    public static String json(int errorCode, String sentence) {
        return Json.createObjectBuilder().add("error", errorCode).add("message", stripCode(sentence)).build().toString();
    }

    /** An AqException's message starts with "AQ-nnnnn: ": the number is given apart. */
    static String stripCode(String sentence) {
        if (sentence != null && sentence.matches("(?s)AQ-\\d{5}: .*")) {
            return sentence.substring(10);
        }
        return sentence == null ? "" : sentence;
    }

    public static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> {
                    // characters XML 1.0 cannot carry at all (control characters from hostile input echoed back)
                    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
                        b.append('?');
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }
}
