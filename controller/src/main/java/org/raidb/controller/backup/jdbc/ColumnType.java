package org.raidb.controller.backup.jdbc;

/**
 * A column's type in product-neutral terms.
 *
 * @param size the length of CHAR and VARCHAR, the precision of DECIMAL; 0 when the type has none
 *     (DECIMAL without precision keeps any value PostgreSQL's numeric keeps)
 * @param scale the scale of DECIMAL, else 0
 */
public record ColumnType(TypeKind kind, int size, int scale) {

    public static ColumnType of(TypeKind kind) {
        return new ColumnType(kind, 0, 0);
    }

    public static ColumnType sized(TypeKind kind, int size) {
        return new ColumnType(kind, size, 0);
    }

    public static ColumnType decimal(int precision, int scale) {
        return new ColumnType(TypeKind.DECIMAL, precision, scale);
    }

    @Override
    public String toString() {
        if (kind == TypeKind.DECIMAL && size > 0) {
            return kind + "(" + size + "," + scale + ")";
        }
        return size > 0 ? kind + "(" + size + ")" : kind.toString();
    }
}
