package org.raidb.driver;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.raidb.driver.protocol.SqlStates;

/**
 * The JDBC call escape, translated in the driver into a PostgreSQL query so that the controller
 * handles a call like any other statement:
 *
 * <ul>
 *   <li>{@code {call f(a, b)}} becomes {@code select * from f(a, b)}: the function's result columns
 *       (its OUT parameters, or its single value) are the result row;
 *   <li>{@code {? = call f(a)}} becomes {@code select f(a)}: the value is the one result column.
 * </ul>
 *
 * An argument that is a lone {@code ?} registered as OUT and never set is dropped from the call,
 * because PostgreSQL functions take only their IN arguments. Text that is not a call escape is
 * used as it is.
 */
final class CallEscape {
  private static final Pattern ESCAPE = Pattern.compile(
      "\\{\\s*(\\?\\s*=\\s*)?call\\s+([^\\s(]+(?:\\s*\\.\\s*[^\\s(]+)*)\\s*(?:\\((.*)\\))?\\s*\\}\\s*;?\\s*",
      Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

  private final boolean returnsValue;
  private final String function;
  private final List<String> arguments;
  /** For each argument, the 1-based parameter indexes of the placeholders it holds. */
  private final List<int[]> argumentParameters;
  private final int parameterCount;

  private CallEscape(boolean returnsValue, String function, List<String> arguments) {
    this.returnsValue = returnsValue;
    this.function = function;
    this.arguments = arguments;
    this.argumentParameters = new ArrayList<>();
    int next = returnsValue ? 2 : 1;
    for (String argument : arguments) {
      int n = SqlText.countParameters(argument);
      int[] indexes = new int[n];
      for (int i = 0; i < n; i++) {
        indexes[i] = next++;
      }
      argumentParameters.add(indexes);
    }
    this.parameterCount = next - 1;
  }

  /** The parsed escape, or null if {@code sql} is not a call escape. */
  static CallEscape parse(String sql) throws SQLException {
    String trimmed = sql.trim();
    if (!trimmed.startsWith("{")) {
      return null;
    }
    Matcher m = ESCAPE.matcher(trimmed);
    if (!m.matches()) {
      throw DriverErrors.of("Malformed function or procedure escape syntax at offset 0: " + sql, SqlStates.SYNTAX_ERROR);
    }
    String args = m.group(3);
    List<String> arguments = new ArrayList<>();
    if (args != null && !args.isBlank()) {
      for (String a : SqlText.splitTopLevel(args)) {
        arguments.add(a.trim());
      }
    }
    return new CallEscape(m.group(1) != null, m.group(2).replaceAll("\\s+", ""), arguments);
  }

  /** Whether parameter 1 is the function's value ({@code ? = call}). */
  boolean returnsValue() {
    return returnsValue;
  }

  /** Placeholders of the escape, the {@code ? =} one included: what the application numbers. */
  int parameterCount() {
    return parameterCount;
  }

  /** Whether the argument holding this parameter is a lone {@code ?}, which may be left out of the call. */
  boolean isLoneArgument(int parameterIndex) {
    for (int i = 0; i < arguments.size(); i++) {
      int[] indexes = argumentParameters.get(i);
      if (indexes.length == 1 && indexes[0] == parameterIndex) {
        return "?".equals(arguments.get(i));
      }
    }
    return false;
  }

  /** The query, leaving out the lone-{@code ?} arguments of the given parameters. */
  String toSql(Set<Integer> omittedParameters) {
    List<String> kept = new ArrayList<>();
    for (int i = 0; i < arguments.size(); i++) {
      int[] indexes = argumentParameters.get(i);
      boolean omitted = indexes.length == 1 && "?".equals(arguments.get(i)) && omittedParameters.contains(indexes[0]);
      if (!omitted) {
        kept.add(arguments.get(i));
      }
    }
    String call = function + "(" + String.join(", ", kept) + ")";
    return returnsValue ? "select " + call : "select * from " + call;
  }

  @Override
  public String toString() {
    return toSql(Set.of());
  }
}
