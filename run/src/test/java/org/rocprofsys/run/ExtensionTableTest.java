package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md's extension table ("Extending the house") names, for each kind of new
 * part, the one line that registers it. Each code span of its third column must name something
 * the code has: {@code Class.MEMBER} a field or method of that class, {@code new X(...)} an entry
 * of the list the same cell names, {@code Class} (with "constructor") a constructor, a path a file
 * or folder of the repository. A span of another form fails, so that the table names only what
 * this test can check; a cell without a span ("none", "the row") is not checked.
 */
class ExtensionTableTest {
    private static final Path REPO = Path.of(System.getProperty("rocprofsys.repo", ".."))
            .toAbsolutePath()
            .normalize();

    private static final Pattern SPAN = Pattern.compile("`([^`]+)`");
    private static final Pattern MEMBER = Pattern.compile("([A-Z]\\w*)\\.(\\w+)");
    private static final Pattern NEW = Pattern.compile("new ([A-Z]\\w*)\\(.*\\),?");
    private static final Pattern CLASS = Pattern.compile("[A-Z]\\w*");

    /** One row of the table: the new part, and its third column. */
    record Row(String part, String registration) {}

    static List<Row> table(List<String> lines) {
        List<Row> rows = new ArrayList<>();
        boolean in = false;
        for (String line : lines) {
            if (line.startsWith("## ")) {
                in = line.startsWith("## Extending the house");
                continue;
            }
            if (!in || !line.startsWith("|") || line.startsWith("| ---") || line.startsWith("| new part")) {
                continue;
            }
            String[] cells = line.split("(?<!\\\\)\\|", -1);
            // "| a | b | c |" splits into "", a, b, c, ""
            assertEquals(5, cells.length, "a row of three columns: " + line);
            rows.add(new Row(cells[1].strip(), cells[3].strip()));
        }
        return rows;
    }

    /** The main source of class {@code name} (one file of that name under some src/main/java). */
    private static String source(String name) throws IOException {
        List<Path> found;
        try (Stream<Path> files = Files.walk(REPO)) {
            found = files.filter(p -> p.getFileName().toString().equals(name + ".java")
                            && p.toString().contains("/src/main/java/")
                            && !p.toString().contains("/target/"))
                    .toList();
        }
        assertEquals(1, found.size(), "one main source file for " + name + ": " + found);
        return Files.readString(found.getFirst());
    }

    /** The text of a field's initializer ({@code MEMBER = ...;}), or of a method's declaration line onwards. */
    private static String declaration(String source, String member) {
        Matcher m =
                Pattern.compile("\\b" + Pattern.quote(member) + "\\s*(=|\\()").matcher(source);
        if (!m.find()) {
            return null;
        }
        int depth = 0;
        for (int i = m.end(); i < source.length(); i++) {
            char c = source.charAt(i);
            if (c == '(' || c == '{') {
                depth++;
            } else if (c == ')' || c == '}') {
                depth--;
            } else if (c == ';' && depth <= 0) {
                return source.substring(m.start(), i);
            }
        }
        return source.substring(m.start());
    }

    /** What is wrong with one registration cell; empty when every span names something that exists. */
    static List<String> check(Row row) throws IOException {
        List<String> problems = new ArrayList<>();
        List<String> spans = new ArrayList<>();
        Matcher s = SPAN.matcher(row.registration());
        while (s.find()) {
            spans.add(s.group(1).strip());
        }
        String list = null; // the declaration of the cell's Class.MEMBER, for its "new X(...)" spans
        for (String span : spans) {
            Matcher member = MEMBER.matcher(span);
            if (member.matches()) {
                String decl = declaration(source(member.group(1)), member.group(2));
                if (decl == null) {
                    problems.add(row.part() + ": " + member.group(1) + " declares no " + member.group(2));
                } else {
                    list = decl;
                }
            }
        }
        for (String span : spans) {
            Matcher created = NEW.matcher(span);
            if (MEMBER.matcher(span).matches()) {
                continue;
            } else if (created.matches()) {
                if (list == null) {
                    problems.add(row.part() + ": `" + span + "` names no list it is in");
                } else if (!list.contains("new " + created.group(1) + "(")) {
                    problems.add(row.part() + ": the list holds no `" + span + "`");
                }
            } else if (CLASS.matcher(span).matches()) {
                String src = source(span);
                if (row.registration().contains("constructor") && !src.contains("public " + span + "(")) {
                    problems.add(row.part() + ": " + span + " has no public constructor");
                }
            } else if (span.contains("/")) {
                if (!Files.exists(REPO.resolve(span))) {
                    problems.add(row.part() + ": no " + span + " in the repository");
                }
            } else {
                problems.add(row.part() + ": `" + span + "` is not a form this test checks"
                        + " (Class.MEMBER, new X(...), Class, a path)");
            }
        }
        return problems;
    }

    @Test
    void everyRegistrationLineTheTableNamesExists() throws IOException {
        List<Row> rows = table(Files.readAllLines(REPO.resolve("docs/architecture.md")));
        assertFalse(rows.isEmpty(), "docs/architecture.md has no extension table");
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Row row : rows) {
            problems.addAll(check(row));
            if (row.registration().contains("`")) {
                checked++;
            }
        }
        assertEquals(List.of(), problems);
        assertTrue(checked >= rows.size() / 2, checked + " of " + rows.size() + " rows name a line");
    }

    @Test
    void aLineThatIsNotThereIsFound() throws IOException {
        assertEquals(
                List.of("x: the list holds no `new NoSuchFormat(),`"),
                check(new Row("x", "`new NoSuchFormat(),` in `RunCommand.OUTPUT_FORMATS`")));
        assertEquals(
                List.of("x: RunCommand declares no NO_SUCH_LIST"),
                check(new Row("x", "one entry in `RunCommand.NO_SUCH_LIST`")));
        assertEquals(List.of("x: no no-such-module/ in the repository"), check(new Row("x", "`no-such-module/`")));
        try {
            check(new Row("x", "`NoSuchClass.LIST`"));
            fail("a class with no source");
        } catch (AssertionError expected) {
            assertTrue(expected.getMessage().contains("NoSuchClass"), expected.getMessage());
        }
        assertEquals(1, check(new Row("x", "`some words`")).size());
    }
}
