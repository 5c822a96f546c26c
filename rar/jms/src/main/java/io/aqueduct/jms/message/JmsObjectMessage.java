package io.aqueduct.jms.message;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.ObjectMessage;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;

/**
 * A message whose body is one serializable object.
 *
 * <p>{@link #setObject(Serializable)} serializes the object at once and keeps only the bytes, so
 * later changes to the object do not change the message; every {@link #getObject()} returns a new
 * deserialized copy.
 *
 * <p><b>Deserialization is filtered.</b> The message reads its body through the
 * {@link ObjectInputFilter} its creator gave it (the session, from its configuration); without one
 * it uses the JVM-wide filter ({@link ObjectInputFilter.Config#getSerialFilter()}, set with
 * {@code -Djdk.serialFilter=...}), read at each getObject. A class (or a depth, size or reference
 * count) the filter refuses makes getObject / getBody / isBodyAssignableTo throw a
 * {@link MessageFormatException} naming it; so does a class that cannot be found. A filter of the
 * message's own replaces the JVM-wide one for that message (through the JVM's filter factory, which
 * by default just takes it); a session that wants both must combine them itself, e.g. with
 * {@code ObjectInputFilter.merge} (Java 21) or a filter that consults the JVM-wide one first. Classes are
 * resolved through the thread context class loader first (the application's, in a container),
 * then the usual way.
 */
public class JmsObjectMessage extends JmsMessage implements ObjectMessage {

    /** The serialized object; null when there is none. */
    private byte[] serialized;
    private ObjectInputFilter filter;

    /** A message that deserializes through the JVM-wide filter. */
    public JmsObjectMessage() {
    }

    /** A message that deserializes through {@code filter} (null: the JVM-wide filter). */
    public JmsObjectMessage(ObjectInputFilter filter) {
        this.filter = filter;
    }

    @Override
    public JmsMessageType messageType() {
        return JmsMessageType.OBJECT;
    }

    /** The filter getObject uses; null means the JVM-wide one. */
    public ObjectInputFilter getObjectInputFilter() {
        return filter;
    }

    /** Replaces the deserialization filter (null: the JVM-wide one), e.g. when a session receives the message. */
    public void setObjectInputFilter(ObjectInputFilter filter) {
        this.filter = filter;
    }

    /**
     * Serializes {@code object} now; null empties the body.
     *
     * @throws MessageFormatException when it cannot be serialized (e.g. a field that is not Serializable)
     * @throws jakarta.jms.MessageNotWriteableException when the body is read-only
     */
    @Override
    public void setObject(Serializable object) throws JMSException {
        checkBodyWritable();
        if (object == null) {
            serialized = null;
            return;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(object);
        } catch (IOException e) {
            MessageFormatException x = new MessageFormatException("cannot serialize the " + object.getClass().getName()
                    + " for an ObjectMessage: " + e);
            x.setLinkedException(e);
            x.initCause(e);
            throw x;
        }
        serialized = bytes.toByteArray();
    }

    /** A new copy of the object, deserialized through the filter; null when there is none. */
    @Override
    public Serializable getObject() throws JMSException {
        if (serialized == null) {
            return null;
        }
        Object o = deserialize();
        if (!(o instanceof Serializable s)) {
            throw new MessageFormatException("the ObjectMessage body deserialized to a " + (o == null ? "null" : o.getClass().getName())
                    + ", which is not Serializable");
        }
        return s;
    }

    private Object deserialize() throws JMSException {
        ObjectInputFilter effective = filter != null ? filter : ObjectInputFilter.Config.getSerialFilter();
        RecordingFilter recording = effective == null ? null : new RecordingFilter(effective);
        try (ObjectInputStream in = new ContextClassLoaderObjectInputStream(new ByteArrayInputStream(serialized))) {
            if (recording != null) {
                in.setObjectInputFilter(recording);
            }
            return in.readObject();
        } catch (InvalidClassException e) {
            String refused = recording == null ? null : recording.refused;
            String what = refused != null ? refused : (e.classname != null ? "class " + e.classname : "its content");
            throw formatException("the ObjectMessage body was refused: " + what
                    + (refused != null ? " is rejected by the deserialization filter" : " (" + e.getMessage() + ")"), e);
        } catch (ClassNotFoundException e) {
            throw formatException("the ObjectMessage body names class " + e.getMessage() + ", which cannot be found", e);
        } catch (IOException | RuntimeException e) {
            throw formatException("the ObjectMessage body cannot be deserialized: " + e, e);
        }
    }

    private static MessageFormatException formatException(String message, Exception cause) {
        MessageFormatException x = new MessageFormatException(message);
        x.setLinkedException(cause);
        x.initCause(cause);
        return x;
    }

    /** Delegates to a filter and remembers what it rejected first, so the exception can name it. */
    private static final class RecordingFilter implements ObjectInputFilter {
        private final ObjectInputFilter delegate;
        private String refused;

        RecordingFilter(ObjectInputFilter delegate) {
            this.delegate = delegate;
        }

        @Override
        public Status checkInput(FilterInfo info) {
            Status s = delegate.checkInput(info);
            if (s == Status.REJECTED && refused == null) {
                refused = info.serialClass() != null
                        ? "class " + info.serialClass().getName()
                        : "a graph of depth " + info.depth() + ", " + info.references() + " references, "
                                + info.streamBytes() + " bytes" + (info.arrayLength() >= 0 ? ", array length " + info.arrayLength() : "");
            }
            return s;
        }
    }

    /** Resolves classes through the thread context class loader first. */
    private static final class ContextClassLoaderObjectInputStream extends ObjectInputStream {
        ContextClassLoaderObjectInputStream(InputStream in) throws IOException {
            super(in);
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            ClassLoader cl = Thread.currentThread().getContextClassLoader();
            if (cl != null) {
                try {
                    return Class.forName(desc.getName(), false, cl);
                } catch (ClassNotFoundException e) {
                    // not the application's: try the usual way
                }
            }
            return super.resolveClass(desc);
        }
    }

    /** The serialized body for the codec (not copied); null when there is none. */
    byte[] serializedBody() {
        return serialized;
    }

    /** Sets the serialized body as the codec read it. */
    void setSerializedBody(byte[] bytes) {
        serialized = bytes;
    }

    @Override
    JmsMessage newEmpty() {
        return new JmsObjectMessage(filter);
    }

    @Override
    void copyBodyTo(JmsMessage c) {
        ((JmsObjectMessage) c).serialized = serialized; // never mutated in place: setObject replaces it
    }

    @Override
    void clearBodyContent() {
        serialized = null;
    }

    @Override
    boolean hasNoBody() {
        return serialized == null;
    }

    @Override
    Object bodyAs(Class<?> c) throws JMSException {
        Object o = deserialize();
        if (!c.isInstance(o)) {
            throw notAssignable(messageType(), c, o == null ? "null" : o.getClass().getName());
        }
        return o;
    }

    /** Deserializes the body to check it: a refused body is a MessageFormatException here too (Message javadoc). */
    @Override
    boolean bodyAssignableTo(Class<?> c) throws JMSException {
        return c.isInstance(deserialize());
    }
}
