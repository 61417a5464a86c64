package org.folio.sidecar.routing;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A FOLIO endpoint path pattern compiled once: {@code {name}} matches one or more characters other than '/',
 * {@code *} matches any run of characters including '/' and none, everything else is literal. Matching walks
 * the parts without allocating, so no regex is compiled or run per request.
 */
public final class PathPattern {

  private static final byte LITERAL = 0;
  private static final byte VARIABLE = 1;
  private static final byte WILDCARD = 2;

  private final String source;
  private final byte[] kinds;
  private final String[] literals;
  private final int literalLength;
  private final int wildcards;
  private final int variables;

  private PathPattern(String source, byte[] kinds, String[] literals) {
    this.source = source;
    this.kinds = kinds;
    this.literals = literals;
    int literalChars = 0;
    int wildcardCount = 0;
    int variableCount = 0;
    for (int i = 0; i < kinds.length; i++) {
      switch (kinds[i]) {
        case LITERAL -> literalChars += literals[i].length();
        case WILDCARD -> wildcardCount++;
        default -> variableCount++;
      }
    }
    this.literalLength = literalChars;
    this.wildcards = wildcardCount;
    this.variables = variableCount;
  }

  public static PathPattern compile(String pattern) {
    if (pattern == null || !pattern.startsWith("/")) {
      throw new IllegalArgumentException("path pattern must start with '/': " + pattern);
    }
    var kinds = new ArrayList<Byte>();
    var literals = new ArrayList<String>();
    var literal = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '*') {
        flush(literal, kinds, literals);
        kinds.add(WILDCARD);
        literals.add(null);
      } else if (c == '{') {
        int close = pattern.indexOf('}', i);
        if (close < 0) {
          throw new IllegalArgumentException("unclosed '{' in path pattern: " + pattern);
        }
        flush(literal, kinds, literals);
        kinds.add(VARIABLE);
        literals.add(null);
        i = close;
      } else {
        literal.append(c);
      }
    }
    flush(literal, kinds, literals);
    var kindArray = new byte[kinds.size()];
    for (int i = 0; i < kindArray.length; i++) {
      kindArray[i] = kinds.get(i);
    }
    return new PathPattern(pattern, kindArray, literals.toArray(String[]::new));
  }

  private static void flush(StringBuilder literal, List<Byte> kinds, List<String> literals) {
    if (!literal.isEmpty()) {
      kinds.add(LITERAL);
      literals.add(literal.toString());
      literal.setLength(0);
    }
  }

  public boolean matches(String path) {
    return matchFrom(path, 0, 0);
  }

  // a switch statement: its cases return from inside loops, which a switch expression cannot
  @SuppressWarnings("RefactorSwitch")
  private boolean matchFrom(String path, int position, int part) {
    if (part == kinds.length) {
      return position == path.length();
    }
    switch (kinds[part]) {
      case LITERAL -> {
        String literal = literals[part];
        return path.startsWith(literal, position) && matchFrom(path, position + literal.length(), part + 1);
      }
      case VARIABLE -> {
        for (int end = position + 1; end <= path.length() && path.charAt(end - 1) != '/'; end++) {
          if (matchFrom(path, end, part + 1)) {
            return true;
          }
        }
        return false;
      }
      default -> {
        if (part == kinds.length - 1) {
          return true;
        }
        for (int end = position; end <= path.length(); end++) {
          if (matchFrom(path, end, part + 1)) {
            return true;
          }
        }
        return false;
      }
    }
  }

  /** The leading literal path segment ({@code /items} of {@code /items/{id}}), or null when it holds a wildcard. */
  @Nullable
  String firstSegment() {
    if (kinds.length == 0 || kinds[0] != LITERAL) {
      return null;
    }
    String first = literals[0];
    int slash = first.indexOf('/', 1);
    if (slash > 0) {
      return first.substring(0, slash);
    }
    return kinds.length == 1 ? first : null;
  }

  /** Positive when this pattern is more specific than the other: more literal text, then fewer wildcards. */
  int compareSpecificity(PathPattern other) {
    if (literalLength != other.literalLength) {
      return Integer.compare(literalLength, other.literalLength);
    }
    if (wildcards != other.wildcards) {
      return Integer.compare(other.wildcards, wildcards);
    }
    return Integer.compare(other.variables, variables);
  }

  @Override
  public String toString() {
    return source;
  }
}
