package org.raidb.controller.analysis;

import java.util.List;
import java.util.Set;

/**
 * Names that a SELECT may call, or that the analyser may take for a call, without changing data:
 * built-in functions of PostgreSQL, MariaDB and standard SQL, the SQL keywords and type names that
 * can stand before a parenthesis, and the non-deterministic functions the rewriter handles in
 * writes. A backend's catalogue overrides this list: a user function of one of these names that may
 * write makes its calls writes.
 *
 * <p>PostgreSQL's own stable and immutable functions need not be listed: the catalogue says so
 * (see {@code BackendRoutines}). Listed here are its volatile built-ins that only read or act on the
 * session (random, clocks, sleeps, advisory locks, which are routed as they were before this list
 * existed), and MariaDB's built-ins, which no catalogue lists. {@code nextval}/{@code setval} are
 * not here: they are writes to their sequence, recognised before this list is consulted; nor are
 * {@code set_config}, {@code pg_notify}, the large-object and server-signalling functions, which
 * act on more than one session's view.
 */
public final class ReadOnlyFunctions {
  /** A list, not Set.of: a name may belong to several groups. */
  private static final Set<String> NAMES = Set.copyOf(List.of(
      // SQL keywords and type names that may precede "(" without being a call
      "all", "and", "any", "array", "as", "between", "by", "case", "cast", "convert", "cube", "distinct", "do", "else",
      "escape", "except", "exists", "extract", "fetch", "filter", "first", "for", "from", "full", "group", "grouping",
      "groups", "having", "if", "ilike", "in", "inner", "intersect", "interval", "into", "is", "join", "lateral",
      "left", "like", "limit", "match", "against", "natural", "next", "not", "of", "offset", "on", "only", "or",
      "order", "ordinality", "outer", "over", "overlay", "partition", "position", "range", "recursive", "regexp",
      "repeatable", "returning", "right", "rlike", "rollup", "row", "rows", "select", "set", "sets", "similar",
      "some", "substring", "system", "bernoulli", "table", "tablesample", "then", "to", "trim", "union", "using",
      "values", "when", "where", "window", "with", "within", "xor", "div", "mod", "collate", "binary",
      "numeric", "decimal", "dec", "varchar", "char", "character", "varying", "nchar", "nvarchar", "bit", "varbit",
      "time", "timestamp", "timestamptz", "timetz", "float", "float4", "float8", "double", "precision", "real",
      "int", "integer", "int2", "int4", "int8", "bigint", "smallint", "tinyint", "mediumint", "boolean", "bool",
      "text", "bytea", "date", "datetime", "year", "json", "jsonb", "uuid", "varbinary", "blob", "signed",
      "unsigned", "zone", "national", "operator", "index", "key", "treat", "normalize", "xmlelement",
      "xmlattributes", "xmlforest", "xmlconcat", "xmlparse", "xmlpi", "xmlroot", "xmlserialize", "xmlexists",
      "xmltable", "xmlnamespaces", "json_table", "json_exists", "json_scalar", "json_serialize",
      // aggregates and window functions
      "count", "sum", "avg", "min", "max", "every", "bool_and", "bool_or", "bit_and", "bit_or", "bit_xor",
      "string_agg", "array_agg", "json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg", "group_concat",
      "stddev", "stddev_pop", "stddev_samp", "std", "variance", "var_pop", "var_samp", "covar_pop", "covar_samp",
      "corr", "regr_slope", "regr_intercept", "regr_count", "regr_r2", "regr_avgx", "regr_avgy", "regr_sxx",
      "regr_syy", "regr_sxy", "percentile_cont", "percentile_disc", "mode", "median", "row_number", "rank",
      "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead", "first_value", "last_value", "nth_value",
      "json_arrayagg", "json_objectagg",
      // conditionals and comparisons
      "coalesce", "nullif", "greatest", "least", "ifnull", "nvl", "nvl2", "isnull", "decode", "num_nulls",
      "num_nonnulls", "interval",
      // strings
      "lower", "upper", "lcase", "ucase", "initcap", "length", "char_length", "character_length", "octet_length",
      "bit_length", "substr", "mid", "ltrim", "rtrim", "btrim", "lpad", "rpad", "replace", "reverse", "repeat",
      "concat", "concat_ws", "format", "strpos", "instr", "locate", "split_part", "starts_with", "translate",
      "ascii", "chr", "md5", "sha1", "sha2", "sha224", "sha256", "sha384", "sha512", "encode", "decode", "to_hex",
      "hex", "unhex", "to_base64", "from_base64", "quote_ident", "quote_literal", "quote_nullable", "quote",
      "regexp_replace", "regexp_match", "regexp_matches", "regexp_split_to_array", "regexp_split_to_table",
      "regexp_like", "regexp_substr", "regexp_instr", "regexp_count", "space", "field", "find_in_set", "elt",
      "soundex", "string_to_array", "array_to_string", "to_char", "to_number", "to_date", "to_timestamp",
      "char_length", "left", "right", "strcmp", "format_bytes", "insert",
      // numbers
      "abs", "ceil", "ceiling", "floor", "round", "trunc", "truncate", "power", "pow", "sqrt", "cbrt", "exp",
      "ln", "log", "log10", "log2", "sign", "pi", "degrees", "radians", "sin", "cos", "tan", "asin", "acos",
      "atan", "atan2", "cot", "gcd", "lcm", "width_bucket", "factorial", "conv", "crc32", "oct", "bin",
      // dates and times (the non-deterministic ones are made literals in writes)
      "now", "current_timestamp", "current_date", "current_time", "localtime", "localtimestamp",
      "transaction_timestamp", "statement_timestamp", "clock_timestamp", "timeofday", "sysdate", "curdate",
      "curtime", "utc_timestamp", "utc_date", "utc_time", "unix_timestamp", "from_unixtime", "date_trunc",
      "date_part", "date_bin", "age", "make_date", "make_time", "make_timestamp", "make_timestamptz",
      "make_interval", "justify_days", "justify_hours", "justify_interval", "isfinite", "date_add", "date_sub",
      "adddate", "subdate", "addtime", "subtime", "datediff", "timediff", "timestampdiff", "timestampadd",
      "date_format", "time_format", "str_to_date", "month", "day", "dayofmonth", "dayofweek", "dayofyear",
      "dayname", "monthname", "hour", "minute", "second", "microsecond", "week", "weekday", "weekofyear",
      "yearweek", "quarter", "last_day", "convert_tz", "to_days", "from_days", "sec_to_time", "time_to_sec",
      "makedate", "maketime", "period_add", "period_diff",
      // JSON and arrays
      "to_json", "to_jsonb", "row_to_json", "array_to_json", "json_build_object", "json_build_array",
      "jsonb_build_object", "jsonb_build_array", "json_object", "json_array", "json_extract_path",
      "json_extract_path_text", "jsonb_extract_path", "jsonb_extract_path_text", "json_array_length",
      "jsonb_array_length", "json_each", "jsonb_each", "json_each_text", "jsonb_each_text", "json_array_elements",
      "jsonb_array_elements", "json_array_elements_text", "jsonb_array_elements_text", "json_object_keys",
      "jsonb_object_keys", "jsonb_set", "jsonb_insert", "jsonb_pretty", "jsonb_strip_nulls", "json_typeof",
      "jsonb_typeof", "jsonb_path_query", "jsonb_path_exists", "json_extract", "json_value", "json_query",
      "json_contains", "json_unquote", "json_length", "json_keys", "json_type", "json_valid", "json_quote",
      "array_length", "array_upper", "array_lower", "array_dims", "cardinality", "unnest", "array_append",
      "array_prepend", "array_cat", "array_position", "array_positions", "array_remove", "array_replace",
      "generate_series", "generate_subscripts",
      // sessions, sequences read, locks and sleeps: act on the session only, routed as before
      "random", "random_normal", "setseed", "rand", "uuid", "uuid_short", "gen_random_uuid", "currval", "lastval",
      "txid_current", "txid_current_if_assigned", "pg_current_xact_id", "pg_current_xact_id_if_assigned",
      "pg_sleep", "pg_sleep_for", "pg_sleep_until", "sleep", "pg_advisory_lock", "pg_advisory_lock_shared",
      "pg_advisory_unlock", "pg_advisory_unlock_shared", "pg_advisory_unlock_all", "pg_advisory_xact_lock",
      "pg_advisory_xact_lock_shared", "pg_try_advisory_lock", "pg_try_advisory_lock_shared",
      "pg_try_advisory_xact_lock", "pg_try_advisory_xact_lock_shared", "get_lock", "release_lock",
      "release_all_locks", "is_free_lock", "is_used_lock", "connection_id", "last_insert_id", "found_rows",
      "row_count", "database", "schema", "user", "current_user", "session_user", "system_user", "version",
      "charset", "collation", "coercibility", "current_role"));

  private ReadOnlyFunctions() {}

  /**
   * Whether the function is a built-in known to only read.
   *
   * @param name lower-case, unqualified
   */
  public static boolean contains(String name) {
    return NAMES.contains(name);
  }
}
