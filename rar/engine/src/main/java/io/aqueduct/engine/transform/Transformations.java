package io.aqueduct.engine.transform;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.StorableText;
import io.aqueduct.engine.store.Dialect;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Transformations' rows in AQ_TRANSFORMATION (plain JDBC). */
public final class Transformations {
    private Transformations() {
    }

    /** Refuses a definition that would not fit its row (before anything is written). */
    public static void checkStorable(Transformation t) {
        t.attributeTexts().forEach((attribute, expression) -> {
            StorableText.check(attribute, "An attribute name of transformation " + t.qualifiedName());
            StorableText.check(expression, "The expression of attribute " + attribute + " of transformation " + t.qualifiedName());
        });
        StorableText.check(t.functionClass(), "The function class of transformation " + t.qualifiedName());
        String attributes = attributesText(t);
        if (attributes != null && attributes.length() > Transformation.MAX_DEFINITION_CHARS) {
            throw new AqException(AqError.INVALID_VALUE, "The attribute expressions of transformation " + t.qualifiedName()
                    + " have more than " + Transformation.MAX_DEFINITION_CHARS + " characters in all.");
        }
    }

    private static String attributesText(Transformation t) {
        if (t.functionClass() != null) {
            return null;
        }
        JsonObjectBuilder b = Json.createObjectBuilder();
        t.attributeTexts().forEach(b::add);
        return b.build().toString();
    }

    public static void insert(Connection c, Dialect dialect, Transformation t) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(dialect.sql("transform.insert"))) {
            ps.setString(1, t.schema());
            ps.setString(2, t.name());
            ps.setString(3, t.from().toString());
            ps.setString(4, t.to().toString());
            setDefinition(ps, 5, t);
            ps.executeUpdate();
        }
    }

    public static void update(Connection c, Dialect dialect, Transformation t) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(dialect.sql("transform.update"))) {
            setDefinition(ps, 1, t);
            ps.setString(3, t.schema());
            ps.setString(4, t.name());
            if (ps.executeUpdate() != 1) {
                throw new AqException(AqError.TRANSFORMATION_NOT_FOUND, "Transformation " + t.qualifiedName()
                        + " is not in the store.");
            }
        }
    }

    private static void setDefinition(PreparedStatement ps, int index, Transformation t) throws SQLException {
        if (t.functionClass() != null) {
            ps.setString(index, t.functionClass());
            ps.setString(index + 1, null);
        } else {
            ps.setNull(index, Types.VARCHAR);
            ps.setCharacterStream(index + 1, new StringReader(attributesText(t)));
        }
    }

    public static void delete(Connection c, Dialect dialect, Transformation t) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(dialect.sql("transform.delete"))) {
            ps.setString(1, t.schema());
            ps.setString(2, t.name());
            ps.executeUpdate();
        }
    }

    /** Every stored transformation (at engine start). */
    public static List<Transformation> loadAll(Connection c, Dialect dialect) throws SQLException {
        List<Transformation> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(dialect.sql("transform.all"));
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                String owner = rs.getString(1);
                String name = rs.getString(2);
                PayloadTypeName from = PayloadTypeName.parse(rs.getString(3), "source");
                PayloadTypeName to = PayloadTypeName.parse(rs.getString(4), "target");
                String function = rs.getString(5);
                String attributes = rs.getString(6); // a CLOB / TEXT column: every driver reads it as a string
                if (function != null) {
                    // the class may not be visible yet (it is the application's): resolved when applied
                    out.add(Transformation.stored(owner, name, from, to, function, null));
                } else {
                    Map<String, String> map = new LinkedHashMap<>();
                    try (var reader = Json.createReader(new StringReader(attributes == null ? "{}" : attributes))) {
                        JsonObject o = reader.readObject();
                        for (Map.Entry<String, JsonValue> e : o.entrySet()) {
                            map.put(e.getKey(), ((JsonString) e.getValue()).getString());
                        }
                    }
                    out.add(Transformation.stored(owner, name, from, to, null, map));
                }
            }
        }
        return out;
    }
}
