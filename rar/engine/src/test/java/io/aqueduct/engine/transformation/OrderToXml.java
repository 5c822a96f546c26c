package io.aqueduct.engine.transformation;

import io.aqueduct.api.Transformer;

/** The reference's CONVERT_TO_ORDER_XML (SYS_XMLGEN of an order). */
public class OrderToXml implements Transformer {
    @Override
    public Object transform(Object payload) {
        Order o = (Order) payload;
        return "<ORDER_TYP><ORDERNO>" + o.getOrderno() + "</ORDERNO><STATUS>" + o.getStatus() + "</STATUS><CUSTOMER>"
                + o.getCustomer() + "</CUSTOMER><ORDERREGION>" + o.getOrderregion() + "</ORDERREGION></ORDER_TYP>";
    }
}
