package io.aqueduct.engine.transformation;

import java.io.Serializable;

/** The reference's WS.ORDER_TYP_SH, reduced: the Western Shipping form of an order. */
public class ShippingOrder implements Serializable {
    private static final long serialVersionUID = 1L;
    private long orderno;
    private String customer;
    public String region;

    public long getOrderno() {
        return orderno;
    }

    public void setOrderno(long orderno) {
        this.orderno = orderno;
    }

    public String getCustomer() {
        return customer;
    }

    public void setCustomer(String customer) {
        this.customer = customer;
    }
}
