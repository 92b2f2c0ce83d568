package org.raidb.driver;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.SQLXML;
import javax.xml.transform.Result;
import javax.xml.transform.Source;
import javax.xml.transform.stream.StreamSource;
import org.raidb.driver.protocol.SqlStates;

/**
 * An {@code xml} value read from a result: what {@code getSQLXML} and {@code getObject} return, as
 * pgjdbc returns its PgSQLXML. Read-only; the text can be read once or many times (it is in memory
 * already). {@link #toString()} is the XML text.
 */
final class RaidbSqlXml implements SQLXML {
    private final String xml;
    private boolean freed;

    RaidbSqlXml(String xml) {
        this.xml = xml;
    }

    private void checkFreed() throws SQLException {
        if (freed) {
            throw DriverErrors.of(
                    "This SQLXML object has already been freed.", SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
    }

    @Override
    public void free() {
        freed = true;
    }

    @Override
    public InputStream getBinaryStream() throws SQLException {
        checkFreed();
        return new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public Reader getCharacterStream() throws SQLException {
        checkFreed();
        return new StringReader(xml);
    }

    @Override
    public String getString() throws SQLException {
        checkFreed();
        return xml;
    }

    /** A StreamSource (or, with null, whatever the caller takes: also a StreamSource). */
    @Override
    @SuppressWarnings("unchecked")
    public <T extends Source> T getSource(Class<T> sourceClass) throws SQLException {
        checkFreed();
        if (sourceClass == null || sourceClass == StreamSource.class || sourceClass == Source.class) {
            return (T) new StreamSource(new StringReader(xml));
        }
        throw DriverErrors.notSupported("SQLXML.getSource(" + sourceClass.getName() + ")");
    }

    @Override
    public OutputStream setBinaryStream() throws SQLException {
        throw readOnly();
    }

    @Override
    public Writer setCharacterStream() throws SQLException {
        throw readOnly();
    }

    @Override
    public void setString(String value) throws SQLException {
        throw readOnly();
    }

    @Override
    public <T extends Result> T setResult(Class<T> resultClass) throws SQLException {
        throw readOnly();
    }

    private static SQLException readOnly() {
        return DriverErrors.of(
                "This SQLXML object was read from a result and cannot be written.",
                SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
    }

    @Override
    public String toString() {
        return xml;
    }
}
