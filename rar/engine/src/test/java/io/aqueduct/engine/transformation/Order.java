package io.aqueduct.engine.transformation;

import java.io.Serializable;

/** The reference's OE.ORDER_TYP, reduced: an order of the Order Entry application. */
public class Order implements Serializable {
    private static final long serialVersionUID = 1L;
    private int orderno;
    private String status;
    private String customer;
    private String orderregion;

    public Order() {
    }

    public Order(int orderno, String status, String customer, String orderregion) {
        this.orderno = orderno;
        this.status = status;
        this.customer = customer;
        this.orderregion = orderregion;
    }

    public int getOrderno() {
        return orderno;
    }

    public String getStatus() {
        return status;
    }

    public String getCustomer() {
        return customer;
    }

    public String getOrderregion() {
        return orderregion;
    }
}
