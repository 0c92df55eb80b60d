package org.rocprofsys.config.file;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.rocprofsys.config.ConfigException;
import org.rocprofsys.config.RawEntry;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/** The XML config format rocprof-sys-avail writes: {@code <cereal><rocprofiler-systems><settings><KEY><value>}. */
public final class XmlConfigReader {
    private XmlConfigReader() {}

    public static ConfigFileContents read(
            String fileName, String text, Map<String, String> environment, Function<String, Optional<String>> settings)
            throws ConfigException {
        Document doc;
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(null);
            doc = b.parse(new InputSource(new StringReader(text)));
        } catch (SAXException e) {
            throw new ConfigException(fileName + ": invalid XML: " + e.getMessage());
        } catch (ParserConfigurationException | IOException e) {
            throw new ConfigException(fileName + ": " + e.getMessage());
        }
        NodeList projects = doc.getElementsByTagName(JsonConfigReader.ROOT);
        if (projects.getLength() == 0) {
            throw new ConfigException(fileName + ": no <" + JsonConfigReader.ROOT + "> element");
        }
        Substitution substitution = new Substitution(environment, Map.of(), settings);
        List<RawEntry> entries = new ArrayList<>();
        NodeList settingsNodes = ((Element) projects.item(0)).getElementsByTagName("settings");
        if (settingsNodes.getLength() > 0) {
            for (Node n = settingsNodes.item(0).getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e) {
                    NodeList values = e.getElementsByTagName("value");
                    String value = values.getLength() > 0 ? values.item(0).getTextContent() : e.getTextContent();
                    entries.add(new RawEntry(
                            e.getTagName(), substitution.apply(value.strip()), fileName + " <" + e.getTagName() + ">"));
                }
            }
        }
        return new ConfigFileContents(List.copyOf(entries), Map.of());
    }
}
