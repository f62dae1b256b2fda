// A chess mind in Java: one FEN per line in, one "from,to" action per line out.
// Squares are numbered 0-63 (a1 = 0, h1 = 7, a8 = 56); "0,0" resigns.
// It plays the most valuable capture it can, else a random legal move.  It leaves out
// castling and en passant (it never needs them to have a legal move).
//
//   javac -d build CaptureMind.java
//   plies arena "mind:java -cp build CaptureMind" random --games 10 --depth 1
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public class CaptureMind {
    static final int[][] KNIGHT = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static final int[][] KING = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static final int[][] ROOK = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    static final int[][] BISHOP = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    static final String VALUES = "pnbrqk";
    static final Random RNG = new Random(1);

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            System.out.println(answer(line.trim()));
            System.out.flush();
        }
    }

    static String answer(String fen) {
        String[] fields = fen.split(" ");
        if (fields.length < 2) return "0,0";
        char[] board = new char[64];
        int sq = 56;
        for (char c : fields[0].toCharArray()) {
            if (c == '/') sq -= 16;
            else if (Character.isDigit(c)) sq += c - '0';
            else if (sq >= 0 && sq < 64) board[sq++] = c;
        }
        boolean white = fields[1].equals("w");
        List<int[]> moves = legalMoves(board, white);
        if (moves.isEmpty()) return "0,0";
        int[] best = null;
        int bestValue = 0;
        for (int[] m : moves) {
            int value = board[m[1]] == 0 ? 0 : VALUES.indexOf(Character.toLowerCase(board[m[1]])) + 1;
            if (value > bestValue) { best = m; bestValue = value; }
        }
        if (best == null) best = moves.get(RNG.nextInt(moves.size()));
        return best[0] + "," + best[1];
    }

    static boolean own(char piece, boolean white) {
        return piece != 0 && Character.isUpperCase(piece) == white;
    }

    static List<int[]> legalMoves(char[] board, boolean white) {
        List<int[]> legal = new ArrayList<>();
        for (int from = 0; from < 64; from++) {
            if (!own(board[from], white)) continue;
            for (int to : targets(board, from, white)) {
                char[] after = board.clone();
                after[to] = after[from];
                after[from] = 0;
                int king = new String(after).indexOf(white ? 'K' : 'k');
                if (king >= 0 && !attacked(after, king, !white)) legal.add(new int[] {from, to});
            }
        }
        return legal;
    }

    static List<Integer> targets(char[] board, int from, boolean white) {
        List<Integer> out = new ArrayList<>();
        char p = Character.toLowerCase(board[from]);
        int f = from % 8, r = from / 8;
        if (p == 'p') {
            int dir = white ? 1 : -1, start = white ? 1 : 6;
            if (onBoard(f, r + dir) && board[from + 8 * dir] == 0) {
                out.add(from + 8 * dir);
                if (r == start && board[from + 16 * dir] == 0) out.add(from + 16 * dir);
            }
            for (int df = -1; df <= 1; df += 2) {
                if (!onBoard(f + df, r + dir)) continue;
                int to = from + 8 * dir + df;
                if (board[to] != 0 && !own(board[to], white)) out.add(to);
            }
            return out;
        }
        if (p == 'n' || p == 'k') {
            for (int[] d : p == 'n' ? KNIGHT : KING) {
                int to = (r + d[1]) * 8 + f + d[0];
                if (onBoard(f + d[0], r + d[1]) && !own(board[to], white)) out.add(to);
            }
            return out;
        }
        List<int[]> dirs = new ArrayList<>();
        if (p != 'b') dirs.addAll(List.of(ROOK));
        if (p != 'r') dirs.addAll(List.of(BISHOP));
        for (int[] d : dirs) {
            for (int k = 1; onBoard(f + k * d[0], r + k * d[1]); k++) {
                int to = (r + k * d[1]) * 8 + f + k * d[0];
                if (own(board[to], white)) break;
                out.add(to);
                if (board[to] != 0) break;
            }
        }
        return out;
    }

    static boolean attacked(char[] board, int square, boolean byWhite) {
        for (int from = 0; from < 64; from++) {
            if (!own(board[from], byWhite)) continue;
            char p = Character.toLowerCase(board[from]);
            int f = from % 8, r = from / 8, dir = byWhite ? 1 : -1;
            if (p == 'p') {
                if (square / 8 == r + dir && Math.abs(square % 8 - f) == 1) return true;
            } else if (targets(board, from, byWhite).contains(square)) {
                return true;
            }
        }
        return false;
    }

    static boolean onBoard(int f, int r) {
        return f >= 0 && f < 8 && r >= 0 && r < 8;
    }
}
