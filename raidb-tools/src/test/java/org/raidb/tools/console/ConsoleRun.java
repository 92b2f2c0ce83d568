package org.raidb.tools.console;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.raidb.controller.admin.AdminTestController;
import org.raidb.tools.cli.RaidbCommand;
import picocli.CommandLine;

/** What one {@code raidb console} run printed and returned, run in-process as a script would run it. */
record ConsoleRun(int exit, String out, String err) {

    static ConsoleRun console(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine raidb = new CommandLine(new RaidbCommand());
        raidb.setOut(new PrintWriter(out, true));
        raidb.setErr(new PrintWriter(err, true));
        String[] all = new String[args.length + 1];
        all[0] = "console";
        System.arraycopy(args, 0, all, 1, args.length);
        int exit = raidb.execute(all);
        return new ConsoleRun(exit, out.toString(), err.toString());
    }

    /**
     * {@code raidb console [OPTION...] -c COMMAND} as the admin of "shop" of an {@link AdminTestController}. Its output
     * is a string, not a terminal, as when a script runs it.
     */
    static ConsoleRun asShopAdmin(int adminPort, String command, String... options) {
        String[] args = new String[options.length + 8];
        System.arraycopy(options, 0, args, 0, options.length);
        System.arraycopy(
                new String[] {
                    "--port",
                    String.valueOf(adminPort),
                    "--user",
                    AdminTestController.SHOP_ADMIN,
                    "--password",
                    AdminTestController.SHOP_ADMIN_PASSWORD,
                    "-c",
                    command
                },
                0,
                args,
                options.length,
                8);
        return console(args);
    }
}
