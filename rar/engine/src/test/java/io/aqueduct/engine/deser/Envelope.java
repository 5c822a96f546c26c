package io.aqueduct.engine.deser;

import java.io.Serializable;

/** A domain object with a field of any serializable type: what a gadget hides in. */
public class Envelope implements Serializable {
    private static final long serialVersionUID = 1L;
    private final String label;
    private final Serializable attachment;

    public Envelope(String label, Serializable attachment) {
        this.label = label;
        this.attachment = attachment;
    }

    public String label() {
        return label;
    }

    public Serializable attachment() {
        return attachment;
    }
}
