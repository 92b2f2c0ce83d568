package org.raidb.tools.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * docs/benchmarks.md, where figures are recorded. Each benchmark owns one "## " section; a new entry
 * goes at the end of its section, so that sections written by other benchmarks (and branches) are
 * left alone and the file merges easily.
 */
final class BenchmarksFile {
    static final String TITLE = "# Benchmarks";
    static final String INTRO = "Speed is shown by benchmarks: commands that measure RAIDb against plain pgjdbc in the "
            + "same run, print their figures and the ratio between them, and record them here with the date and the "
            + "machine. No test asserts a timing. Unless an entry says otherwise, figures come from a shared 2-core "
            + "machine on which other engineers' builds run at the same time: compare ratios measured in the same run, "
            + "not absolute figures across runs.";

    private BenchmarksFile() {}

    /**
     * Adds an entry at the end of the section under {@code heading}, creating the section (with its
     * introduction) or the whole file when missing.
     */
    static void append(Path file, String heading, String sectionIntro, String entry) throws IOException {
        String text =
                Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : TITLE + "\n\n" + INTRO + "\n";
        Files.writeString(file, withEntry(text, heading, sectionIntro, entry), StandardCharsets.UTF_8);
    }

    static String withEntry(String text, String heading, String sectionIntro, String entry) {
        String body = text.endsWith("\n") ? text : text + "\n";
        int section = headingLine(body, heading);
        if (section < 0) {
            return body + "\n" + heading + "\n\n" + sectionIntro + "\n\n" + entry;
        }
        int end = nextSectionStart(body, section + heading.length());
        String before = body.substring(0, end);
        String after = body.substring(end);
        String separated = before.endsWith("\n\n") ? before : before + "\n";
        return separated + entry + (after.isEmpty() ? "" : "\n" + after);
    }

    /** The offset of the line that is exactly {@code heading}, or -1. */
    private static int headingLine(String text, String heading) {
        int from = 0;
        while (true) {
            int at = text.indexOf(heading, from);
            if (at < 0) {
                return -1;
            }
            boolean lineStart = at == 0 || text.charAt(at - 1) == '\n';
            int end = at + heading.length();
            boolean lineEnd = end == text.length() || text.charAt(end) == '\n';
            if (lineStart && lineEnd) {
                return at;
            }
            from = end;
        }
    }

    /** Where the next "## " section (or the end of the text) begins. */
    private static int nextSectionStart(String text, int from) {
        int at = text.indexOf("\n## ", from);
        return at < 0 ? text.length() : at + 1;
    }

    /**
     * The repository's docs/benchmarks.md: found from where this code was loaded (the controller jar
     * or classes under the repository), then from the working directory.
     */
    static Optional<Path> inRepository() {
        Optional<Path> root = repositoryAbove(codeLocation());
        if (root.isEmpty()) {
            root = repositoryAbove(Path.of("").toAbsolutePath());
        }
        return root.map(r -> r.resolve("docs").resolve("benchmarks.md"));
    }

    private static Path codeLocation() {
        try {
            return Path.of(BenchmarksFile.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (Exception e) {
            return null;
        }
    }

    /** The nearest directory at or above {@code start} that holds bin/raidb and docs/. */
    private static Optional<Path> repositoryAbove(Path start) {
        for (Path p = start; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("bin").resolve("raidb")) && Files.isDirectory(p.resolve("docs"))) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
