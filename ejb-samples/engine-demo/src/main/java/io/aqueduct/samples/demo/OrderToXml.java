package io.aqueduct.samples.demo;

import io.aqueduct.api.Transformer;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;

/**
 * The reference's CONVERT_TO_ORDER_XML: a booked order (JSON) as the ORDER_TYP XML document the
 * overseas shipping site reads. Named in {@code createTransformation("OE.OE2XML", "JSON", "XML", ...)};
 * the engine makes a new instance for each message.
 */
public class OrderToXml implements Transformer {
    @Override
    public Object transform(Object payload) {
        JsonObject o;
        try (JsonReader r = Json.createReader(new StringReader((String) payload))) {
            o = r.readObject();
        }
        JsonObject c = o.getJsonObject("customer");
        StringBuilder xml = new StringBuilder("<ORDER_TYP>")
                .append(element("ORDERNO", String.valueOf(o.getInt("orderno"))))
                .append(element("STATUS", o.getString("status")))
                .append(element("ORDERTYPE", o.getString("ordertype")))
                .append(element("ORDERREGION", o.getString("orderregion")))
                .append("<CUSTOMER>")
                .append(element("CUSTNO", String.valueOf(c.getInt("custno"))))
                .append(element("NAME", c.getString("name")))
                .append(element("COUNTRY", c.getString("country")))
                .append("</CUSTOMER><ITEMS>");
        o.getJsonArray("items").getValuesAs(JsonObject.class).forEach(i -> xml.append("<ITEM>")
                .append(element("TITLE", i.getString("title")))
                .append(element("QUANTITY", String.valueOf(i.getInt("quantity"))))
                .append("</ITEM>"));
        return xml.append("</ITEMS></ORDER_TYP>").toString();
    }

    private static String element(String name, String text) {
        String escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
        return "<" + name + ">" + escaped + "</" + name + ">";
    }
}
