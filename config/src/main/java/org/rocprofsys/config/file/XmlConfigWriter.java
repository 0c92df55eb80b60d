package org.rocprofsys.config.file;

import java.io.StringWriter;
import java.util.List;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import org.rocprofsys.config.SettingDefinition;

/** Writes the XML layout of upstream's cereal archive; {@link XmlConfigReader} reads it back. */
public final class XmlConfigWriter {
    private XmlConfigWriter() {}

    public static String write(List<ConfigEntry> entries, boolean full) {
        StringWriter out = new StringWriter();
        try {
            XMLStreamWriter w = XMLOutputFactory.newInstance().createXMLStreamWriter(out);
            w.writeStartDocument("utf-8", "1.0");
            w.writeCharacters("\n");
            w.writeStartElement("cereal");
            w.writeCharacters("\n\t");
            w.writeStartElement(JsonConfigReader.ROOT);
            w.writeCharacters("\n\t\t");
            w.writeStartElement("settings");
            for (ConfigEntry e : entries) {
                SettingDefinition d = e.setting().definition();
                w.writeCharacters("\n\t\t\t");
                w.writeStartElement(d.envName());
                element(w, "name", d.name());
                element(w, "description", d.description());
                if (full) {
                    element(w, "data_type", d.type().displayName());
                    element(w, "initial", d.defaultValue());
                }
                element(w, "value", e.value());
                if (full) {
                    element(w, "updated", e.setting().source().label());
                    element(w, "categories", String.join(", ", d.categories()));
                }
                w.writeCharacters("\n\t\t\t");
                w.writeEndElement();
            }
            w.writeCharacters("\n\t\t");
            w.writeEndElement();
            w.writeCharacters("\n\t");
            w.writeEndElement();
            w.writeCharacters("\n");
            w.writeEndElement();
            w.writeCharacters("\n");
            w.writeEndDocument();
            w.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException(e);
        }
        return out.toString();
    }

    private static void element(XMLStreamWriter w, String name, String text) throws XMLStreamException {
        w.writeCharacters("\n\t\t\t\t");
        w.writeStartElement(name);
        w.writeCharacters(text);
        w.writeEndElement();
    }
}
