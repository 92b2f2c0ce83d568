package org.raidb.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Entries land at the end of their own section, whatever other sections the file holds. */
class BenchmarksFileTest {
    private static final String HEADING = "## Overhead against plain pgjdbc";
    private static final String INTRO = "How it is measured.";

    @TempDir
    Path dir;

    @Test
    void aMissingFileIsCreatedWithTitleIntroSectionAndEntry() throws Exception {
        Path file = dir.resolve("benchmarks.md");

        BenchmarksFile.append(file, HEADING, INTRO, "### run 1\n\nfigures 1\n");

        assertThat(Files.readString(file))
                .isEqualTo(BenchmarksFile.TITLE + "\n\n" + BenchmarksFile.INTRO + "\n\n" + HEADING + "\n\n" + INTRO
                        + "\n\n### run 1\n\nfigures 1\n");
    }

    @Test
    void aSecondEntryFollowsTheFirst() {
        String once = BenchmarksFile.withEntry("# Benchmarks\n\nIntro.\n", HEADING, INTRO, "### run 1\n");
        String twice = BenchmarksFile.withEntry(once, HEADING, INTRO, "### run 2\n");

        assertThat(twice)
                .isEqualTo("# Benchmarks\n\nIntro.\n\n" + HEADING + "\n\n" + INTRO + "\n\n### run 1\n\n### run 2\n");
    }

    @Test
    void theEntryGoesBeforeTheNextSectionWhichIsLeftAsItWas() {
        String text =
                "# Benchmarks\n\nIntro.\n\n" + HEADING + "\n\n" + INTRO + "\n\n### run 1\n\n## TPC-W\n\nTheirs.\n";

        String result = BenchmarksFile.withEntry(text, HEADING, INTRO, "### run 2\n");

        assertThat(result)
                .isEqualTo("# Benchmarks\n\nIntro.\n\n" + HEADING + "\n\n" + INTRO
                        + "\n\n### run 1\n\n### run 2\n\n## TPC-W\n\nTheirs.\n");
    }

    @Test
    void aFileWithOnlyAnotherSectionGetsOursAppendedAfterIt() {
        String text = "# Benchmarks\n\nIntro.\n\n## TPC-W\n\nTheirs.";

        String result = BenchmarksFile.withEntry(text, HEADING, INTRO, "### run 1\n");

        assertThat(result)
                .isEqualTo("# Benchmarks\n\nIntro.\n\n## TPC-W\n\nTheirs.\n\n" + HEADING + "\n\n" + INTRO
                        + "\n\n### run 1\n");
    }

    @Test
    void aLongerHeadingStartingLikeOursIsNotOurs() {
        String text = "# Benchmarks\n\n" + HEADING + " (old)\n\nold.\n";

        String result = BenchmarksFile.withEntry(text, HEADING, INTRO, "### run 1\n");

        assertThat(result).endsWith("old.\n\n" + HEADING + "\n\n" + INTRO + "\n\n### run 1\n");
    }
}
