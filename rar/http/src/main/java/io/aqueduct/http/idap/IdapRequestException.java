package io.aqueduct.http.idap;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;

/** A malformed AQ XML request: answered with a Client fault naming what is wrong (24097, invalid value). */
final class IdapRequestException extends AqException {
    private static final long serialVersionUID = 1L;

    IdapRequestException(String sentence) {
        super(AqError.INVALID_VALUE, sentence);
    }
}
