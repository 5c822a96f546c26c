package io.aqueduct.engine.transform;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.engine.queue.QualifiedName;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The store's transformations in memory, by qualified name; the administration keeps it in step. */
public final class TransformationCatalog {
    private final Map<String, Transformation> byName = new ConcurrentHashMap<>();
    private final String defaultSchema;

    public TransformationCatalog(String defaultSchema) {
        this.defaultSchema = defaultSchema;
    }

    /** A transformation by qualified name, or null. */
    public Transformation get(String qualifiedName) {
        return byName.get(qualifiedName);
    }

    /** The transformation a user names ({@code [schema.]name}); 24185 when there is none. */
    public Transformation lookup(String name) {
        QualifiedName qn = QualifiedName.forLookup(name, defaultSchema, "transformation");
        Transformation t = byName.get(qn.toString());
        if (t == null) {
            throw new AqException(AqError.TRANSFORMATION_NOT_FOUND, "Transformation " + qn + " does not exist.");
        }
        return t;
    }

    public void put(Transformation t) {
        byName.put(t.qualifiedName(), t);
    }

    public void remove(String qualifiedName) {
        byName.remove(qualifiedName);
    }

    public Collection<Transformation> all() {
        return byName.values();
    }
}
