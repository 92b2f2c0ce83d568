package org.raidb.controller.it.webconsole;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's Chromium driven through its chromedriver, headless, with a fresh profile each time. Both paths are given
 * to Selenium so that its driver manager never looks for (or downloads) a browser or a driver of its own. Tests that
 * need it are skipped, with the reason, where the two packages are not installed ({@code .ci/run} installs them).
 */
final class HeadlessChromium implements AutoCloseable {
    static final String CHROMIUM = "/usr/bin/chromium";
    static final String CHROMEDRIVER = "/usr/bin/chromedriver";

    /** Where screenshots go when this system property names a directory; nowhere otherwise. */
    static final String SCREENSHOTS_PROPERTY = "raidb.screenshots";

    /** How long a page may take to show what a test waits for (the console redraws every 2 s). */
    static final Duration PATIENCE = Duration.ofSeconds(60);

    /**
     * Selenium looks for DevTools bindings matching the browser's version, which these tests never use, and warns
     * at every start when Debian's Chromium is newer than the bindings it ships. Kept here: a logger only
     * configured may be collected, and its level with it.
     */
    private static final java.util.logging.Logger DEVTOOLS = quiet("org.openqa.selenium.devtools");

    final ChromeDriver driver;
    private final Path profile;

    private HeadlessChromium(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    /** Starts a browser, or skips the calling test when Chromium or chromedriver is not installed. */
    static HeadlessChromium start() throws IOException {
        assumeTrue(
                Files.isExecutable(Path.of(CHROMIUM)) && Files.isExecutable(Path.of(CHROMEDRIVER)),
                "the web console's browser tests need Debian's chromium and chromium-driver (" + CHROMIUM + ", "
                        + CHROMEDRIVER + "): apt-get install chromium chromium-driver");
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER);
        Path profile = Files.createTempDirectory("raidb-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1280,1000",
                "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER))
                .usingAnyFreePort()
                .build();
        return new HeadlessChromium(new ChromeDriver(service, options), profile);
    }

    private static java.util.logging.Logger quiet(String name) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(java.util.logging.Level.SEVERE);
        return logger;
    }

    /** Saves the page as docs would show it, under {@value #SCREENSHOTS_PROPERTY} when that is set. */
    void screenshot(String name) throws IOException {
        String directory = System.getProperty(SCREENSHOTS_PROPERTY);
        if (directory == null || directory.isBlank()) {
            return;
        }
        Path target = Path.of(directory);
        if (!target.isAbsolute() && Files.isDirectory(Path.of("..", "docs"))) {
            target = Path.of("..").resolve(target); // Maven runs the tests in controller/: the path is the repository's
        }
        Files.createDirectories(target);
        File png = driver.getScreenshotAs(OutputType.FILE);
        Files.copy(png.toPath(), target.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void close() throws IOException {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        }
    }

    /** Logs in on the console's login page and waits for the first page to be drawn. */
    void logIn(String base, String user, String password) {
        driver.get(base + "/console/login");
        type("user", user);
        type("password", password);
        driver.findElement(By.id("login-button")).click();
        await().atMost(PATIENCE).until(() -> "backends".equals(attribute(By.tagName("body"), "data-rendered")));
    }

    void type(String id, String text) {
        WebElement input = driver.findElement(By.id(id));
        input.clear();
        input.sendKeys(text);
    }

    /** The view is redrawn every 2 s: an element found may be replaced before it is read, so read it anew. */
    String text(By by) {
        return await().atMost(PATIENCE)
                .ignoreExceptions()
                .until(() -> driver.findElement(by).getText(), t -> true);
    }

    /** The attribute's value, "null" when the element has none. */
    String attribute(By by, String name) {
        return await().atMost(PATIENCE)
                .ignoreExceptions()
                .until(() -> String.valueOf(driver.findElement(by).getDomAttribute(name)), t -> true);
    }

    /** Clicks once the element is there and can be clicked (a view being redrawn, a dialog opening). */
    void click(By by) {
        await().atMost(PATIENCE).ignoreExceptions().until(() -> {
            driver.findElement(by).click();
            return true;
        });
    }
}
