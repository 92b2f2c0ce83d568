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

    /** {@code raidb console -c COMMAND} as the admin of "shop" of an {@link AdminTestController}. */
    static ConsoleRun asShopAdmin(int adminPort, String command) {
        return console(
                "--port",
                String.valueOf(adminPort),
                "--user",
                AdminTestController.SHOP_ADMIN,
                "--password",
                AdminTestController.SHOP_ADMIN_PASSWORD,
                "-c",
                command);
    }
}
