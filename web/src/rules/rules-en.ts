// Rules pages in English. Our own text; diagrams are positions drawn by the board component.
import type { VariantKey } from '../net/protocol';
import type { RulesDoc } from './types';

const makruk: RulesDoc = {
  intro:
    'Makruk is the chess of Thailand. It is a close cousin of international chess, with slower pieces and a counting rule that decides how long a winning side may take. Games are often tense, positional struggles where every Bia matters.',
  sections: [
    {
      id: 'board',
      title: 'The board and the start',
      blocks: [
        {
          p: 'The board has 8 × 8 squares, all of one colour. Files are named a to h from White’s left, ranks 1 to 8 from White’s side. White moves first.',
        },
        {
          p: 'Each side has a Khun (king), a Met, two Khon, two Ma, two Rua and eight Bia. The Bia start on the third rank, not the second. White’s Khun stands on d1 and its Met on e1; Black’s Khun is on e8 and its Met on d8, so each Khun faces the other side’s Met.',
        },
        { diagram: { fen: 'rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w', caption: 'The starting position.', coords: true } },
      ],
    },
    {
      id: 'pieces',
      title: 'How the pieces move',
      blocks: [
        { p: 'Khun: one step in any of the eight directions. It may never move into check. There is no castling.' },
        { diagram: { fen: '4k3/8/8/8/3K4/8/8/8 w', path: ['d4'], targets: ['c5', 'd5', 'e5', 'c4', 'e4', 'c3', 'd3', 'e3'], caption: 'The Khun on d4 and its eight steps.' } },
        { p: 'Met: one step diagonally, in any of the four directions.' },
        { diagram: { fen: '4k3/8/8/8/3M4/8/8/7K w', path: ['d4'], targets: ['c5', 'e5', 'c3', 'e3'], caption: 'The Met on d4.' } },
        { p: 'Khon: one step diagonally, or one step straight forward — five squares in all. It cannot step straight back or sideways.' },
        { diagram: { fen: '4k3/8/8/8/3S4/8/8/7K w', path: ['d4'], targets: ['c5', 'd5', 'e5', 'c3', 'e3'], caption: 'The White Khon on d4: forward is up the board.' } },
        { p: 'Ma: jumps like a chess knight — two squares in one direction and one to the side — over anything in between.' },
        { diagram: { fen: '4k3/8/8/8/3N4/8/8/7K w', path: ['d4'], targets: ['c6', 'e6', 'b5', 'f5', 'b3', 'f3', 'c2', 'e2'], caption: 'The Ma on d4.' } },
        { p: 'Rua: any number of squares along a rank or a file, like a chess rook. It is the strongest piece.' },
        {
          diagram: {
            fen: '4k3/8/8/8/3R4/8/8/7K w',
            path: ['d4'],
            targets: ['d1', 'd2', 'd3', 'd5', 'd6', 'd7', 'd8', 'a4', 'b4', 'c4', 'e4', 'f4', 'g4', 'h4'],
            caption: 'The Rua on d4.',
          },
        },
        {
          p: 'Bia: one step straight forward; it captures one step diagonally forward. There is no double first step and no en passant. A Bia that reaches its sixth rank (rank 6 for White, rank 3 for Black) turns over at once and becomes a Bia ngai, whether it got there by a plain move or a capture. There is no choice, and any number of Bia may promote.',
        },
        { diagram: { fen: '4k3/8/4r3/3P4/8/8/8/7K w', path: ['d5'], targets: ['d6', 'e6'], caption: 'The Bia on d5 may step to d6 or take the Rua on e6; either way it becomes a Bia ngai.' } },
        { p: 'Bia ngai: moves like a Met, one step diagonally.' },
        { diagram: { fen: '4k3/8/8/8/3M~4/8/8/7K w', path: ['d4'], targets: ['c5', 'e5', 'c3', 'e3'], caption: 'A White Bia ngai on d4: the same four diagonal steps as a Met.' } },
      ],
    },
    {
      id: 'end',
      title: 'How a game ends',
      blocks: [
        {
          ul: [
            'Checkmate: the Khun is attacked and no move saves it. The side that gave mate wins — unless it was the counting side (see below): then the game is only a draw.',
            'Stalemate: no legal move but not in check. The game is a draw.',
            'Counting: the count reaches its limit and the stronger side has not mated. Draw.',
            'The same position with the same side to move for the third time: draw.',
            'Only the two Khuns are left: draw.',
            '400 moves in total (200 each): draw.',
            'Resignation, running out of time, or a draw agreed by both players.',
          ],
        },
        { p: 'On Ttakji the server ends the game by itself in all these cases; nobody has to claim anything.' },
        {
          diagram: {
            fen: 'R3k3/8/4K3/8/8/8/8/8 b',
            last: ['a1', 'a8'],
            check: 'e8',
            caption: 'Checkmate: the Rua checks along the last rank, and the White Khun on e6 guards d7, e7 and f7.',
          },
        },
        { diagram: { fen: 'k7/2K5/1M6/8/8/8/8/8 b', caption: 'Stalemate: Black is not in check but every square next to its Khun is guarded. Draw.' } },
      ],
    },
    {
      id: 'counting',
      title: 'Counting',
      blocks: [
        {
          p: 'Makruk has no fifty-move rule. Instead, once no unpromoted Bia is left on the board (of either colour), a count limits how long the stronger side may try to win.',
        },
        {
          p: 'Board counting is optional. When neither side is down to a lone Khun, a player who has any piece besides the Khun may press “Start count” and make a move: that move is count 1, and each of that player’s later moves adds one. If that player has made 64 counted moves and the opponent’s next move is not checkmate, the game is drawn. The counting player may press “Stop count” with any later move. While counting, a checkmate by the counting side is only a draw — so the side that is behind is the one who counts.',
        },
        {
          p: 'Piece counting starts by itself as soon as one side has only its Khun left (and no unpromoted Bia is on the board). The lone Khun’s side counts. Its first count is the number of all pieces on the board plus one, and the limit depends on what the stronger side has:',
        },
        {
          table: {
            head: ['The stronger side has', 'Limit'],
            rows: [
              ['two Rua', '8'],
              ['one Rua', '16'],
              ['no Rua, two Khon', '22'],
              ['no Rua, fewer than two Khon, two Ma', '32'],
              ['no Rua, one Khon', '44'],
              ['anything else (one Ma, or only Met and Bia ngai)', '64'],
            ],
          },
        },
        {
          p: 'Worked example: White has Khun, Rua and Ma; Black has only its Khun, and no Bia is left. There are 4 pieces on the board, so Black’s next move is counted 5. White has one Rua, so the limit is 16. Black’s moves are counted 5, 6, 7 … and after Black’s move that is counted 16, White has exactly one more move. If it is not checkmate, the game is a draw. White therefore has twelve moves to deliver mate.',
        },
        { diagram: { fen: '8/8/3k4/8/8/2N5/8/R3K3 b', caption: 'Piece counting starts: Black’s next move is count 5, the limit is 16.', coords: true } },
        { p: 'The counters under the board show the count, its limit and the moves left. The “Start count” and “Stop count” buttons appear only when you may use them.' },
        {
          p: 'When the first count is already past the limit: White has Khun, two Rua, two Khon, two Ma, a Met and three Bia ngai against Black’s lone Khun. That is 12 pieces, so the first count is 13 — more than the limit of 8 for two Rua. Black makes one counted move, then White has exactly one move: checkmate at once, or it is a draw.',
        },
        {
          p: 'A board-counting example: every Bia has promoted or been taken. White has Khun, Rua, Khon and Ma; Black has Khun and Ma. Black is behind, so on its turn Black presses “Start count” and moves: count 1. Black’s following moves are counted 2, 3, 4 … If Black makes its 64th counted move and White’s reply is not checkmate, the game is drawn. If White wins the Black Ma on the way, Black has a lone Khun and piece counting replaces the board count: 5 pieces are left, so Black’s next move is counted 6, and the limit is 16 for one Rua.',
        },
        { diagram: { fen: '4k3/8/2n5/8/8/8/3SN3/R3K3 b', caption: 'Black, behind, may start a board count here: with a Ma it has a piece besides its Khun.' } },
      ],
    },
    {
      id: 'tips',
      title: 'Tips',
      blocks: [
        {
          ul: [
            'The Khon is a good defender and a strong attacker at close range: keep your Khon near your Khun early on.',
            'Bia chains are hard to break. Advance them together and aim to promote: a Bia ngai next to the enemy Khun helps build a mating net.',
            'Trade pieces with care in the endgame: with no Rua left, winning against a lone Khun needs time, and the count may run out first.',
            'Open the game with your Bia and Ma; a Rua only comes to life once a file is open.',
            'Before you exchange in the endgame, look at the limits table: keeping a Rua gives you 16 counted moves, two Khon only 22 from a higher start.',
            'Drive a lone Khun to the edge or a corner with your Khun’s help; a Rua alone cannot mate.',
          ],
        },
      ],
    },
    {
      id: 'faq',
      title: 'Questions',
      blocks: [
        { p: 'Why did my checkmate end in a draw? — You were the counting side. Stop the count first, or let your opponent count.' },
        { p: 'Can I choose what my Bia promotes to? — No, it always becomes a Bia ngai, and it happens on the sixth rank, not the last.' },
        { p: 'What happens if I lose my connection? — Your clock keeps running; reopen the page and you are back in the game.' },
        { p: 'Who should press “Start count”? — Usually the side that is behind. It gives the opponent 64 moves to win; the side ahead gains nothing, since its own checkmate would then be only a draw.' },
        { p: 'Does a stopped count go on where it left off? — No. A board count that starts again begins at 1. Piece counting cannot be stopped once it has started.' },
        { p: 'Why did piece counting start at a high number? — It starts at the number of pieces on the board plus one, so the more pieces the strong side kept, the fewer moves it has.' },
        { p: 'Is there a fifty-move rule? — No. Before the last Bia is gone, only repetition and the limit of 400 moves end a long game.' },
        { p: 'Can the Khun castle, or a Bia move two squares? — No, neither exists in Makruk.' },
      ],
    },
  ],
};

const xiangqi: RulesDoc = {
  intro:
    'Xiangqi, Chinese chess, is played on the points where the lines cross rather than on squares. A river splits the board and each general is confined to its palace, which makes for fast, tactical games.',
  sections: [
    {
      id: 'board',
      title: 'The board and the start',
      blocks: [
        {
          p: 'The board has 9 files and 10 ranks of points. Between the fifth and sixth ranks runs the river. At each end, the 3 × 3 points marked with diagonals form a palace. Red moves first.',
        },
        { diagram: { fen: 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w', caption: 'The starting position. Red is at the bottom.', coords: true } },
      ],
    },
    {
      id: 'pieces',
      title: 'How the pieces move',
      blocks: [
        { p: 'General (帥/將): one point along a line, and only inside its palace.' },
        { diagram: { fen: '4k4/4a4/9/9/9/9/9/9/4K4/9 w', path: ['e2'], targets: ['e1', 'e3', 'd2', 'f2'], caption: 'The Red general in the middle of its palace.' } },
        { p: 'Advisor (仕/士): one point diagonally, only inside the palace — five points in all.' },
        { diagram: { fen: '4k4/4a4/9/9/9/9/9/9/4A4/4K4 w', path: ['e2'], targets: ['d1', 'f1', 'd3', 'f3'], caption: 'The advisor in the centre of the palace.' } },
        {
          p: 'Elephant (相/象): exactly two points diagonally. It cannot jump: if the point in between is occupied (the “elephant’s eye”), that move is blocked. It never crosses the river.',
        },
        { diagram: { fen: '4k4/4a4/9/9/9/9/5N3/4B4/9/3K5 w', path: ['e3'], targets: ['c1', 'g1', 'c5'], caption: 'The horse on f4 blocks the elephant’s way to g5.' } },
        {
          p: 'Horse (馬): one point along a line, then one point diagonally outwards. If the first point is occupied (the “horse’s leg”), the horse cannot go that way.',
        },
        { diagram: { fen: '4k4/9/9/9/4p4/4N4/9/9/9/3K5 w', path: ['e5'], targets: ['c6', 'c4', 'g6', 'g4', 'd3', 'f3'], caption: 'The soldier on e6 hobbles the horse: d7 and f7 are out of reach.' } },
        { p: 'Chariot (車): any distance along a line, without jumping. The strongest piece.' },
        {
          diagram: {
            fen: '4k4/9/9/9/9/9/9/1R7/9/3K5 w',
            path: ['b3'],
            targets: ['b1', 'b2', 'b4', 'b5', 'b6', 'b7', 'b8', 'b9', 'b10', 'a3', 'c3', 'd3', 'e3', 'f3', 'g3', 'h3', 'i3'],
            caption: 'The chariot on b3.',
          },
        },
        { p: 'Cannon (炮/砲): moves like a chariot, but captures only by jumping over exactly one piece (of either colour), the “screen”.' },
        {
          diagram: {
            fen: '4k4/1r7/9/1n7/9/9/9/1C7/9/3K5 w',
            path: ['b3'],
            targets: ['b1', 'b2', 'b4', 'b5', 'b6', 'b9', 'a3', 'c3', 'd3', 'e3', 'f3', 'g3', 'h3', 'i3'],
            caption: 'Using the horse on b7 as a screen, the cannon can take the chariot on b9.',
          },
        },
        { p: 'Soldier (兵/卒): one point forward. Once it has crossed the river it may also step one point sideways. It never moves backwards and does not promote.' },
        { diagram: { fen: '4k4/9/9/9/6P2/9/2P6/9/9/3K5 w', path: ['g6'], targets: ['g7', 'f6', 'h6'], caption: 'Across the river, the soldier on g6 has three moves; the one on c4 only one (c5).' } },
      ],
    },
    {
      id: 'generals',
      title: 'Check and the facing generals',
      blocks: [
        { p: 'A move may never leave your own general attacked. The two generals may never face each other on the same file with nothing between them: a move that would open the file between them is not allowed.' },
        {
          diagram: {
            fen: '4k4/9/9/9/9/4R4/9/9/9/4K4 w',
            path: ['e5'],
            targets: ['e2', 'e3', 'e4', 'e6', 'e7', 'e8', 'e9'],
            caption: 'Only the chariot on e5 stands between the generals: it may move along the e-file but never leave it.',
          },
        },
        {
          p: 'A general in check must be saved at once: move it, put a piece in the way, or take the attacker. Against a cannon there is one more way out: move the screen away, or add a second piece between, so that the cannon no longer has exactly one piece to jump.',
        },
      ],
    },
    {
      id: 'end',
      title: 'How a game ends',
      blocks: [
        {
          ul: [
            'A player with no legal move loses — whether in check (checkmate) or not. Stalemate is a loss in Xiangqi.',
            'The same position with the same side to move for the third time ends the game. If one player gave check with every move in between, that player loses (perpetual check is forbidden); otherwise it is a draw.',
            'Neither side has a chariot, horse, cannon or soldier left: draw.',
            '300 moves in total: draw.',
            'Resignation, running out of time, or a draw agreed by both players.',
          ],
        },
        { diagram: { fen: 'R3k4/R8/9/9/9/9/9/9/9/3K5 b', check: 'e10', caption: 'Checkmate with two chariots: the one on a10 gives check, the one on a9 takes away e9.' } },
      ],
    },
    {
      id: 'perpetual',
      title: 'Repetition and perpetual check',
      blocks: [
        { p: 'Ttakji uses one simple rule instead of the tournament rules about chasing. When the same position, with the same side to move, appears for the third time, the game ends at once. Then the moves between the first and the third time decide:' },
        {
          ul: [
            'If one player gave check with every one of their moves in between, that player loses: perpetual check is not allowed.',
            'Otherwise the game is a draw — also when both players gave check with every move.',
            'Chasing a piece over and over without giving check is not punished: the repetition is simply a draw.',
          ],
        },
        {
          p: 'An example: Red’s chariot checks, Black’s general steps aside; the chariot checks from the other side and the general steps back. When the position comes round for the third time, Red has checked with every move, so Red loses. The attacker has to find another plan — or a real checkmate.',
        },
      ],
    },
    {
      id: 'tips',
      title: 'Tips',
      blocks: [
        {
          ul: [
            'Bring your chariots out early along the open files: they are worth about two horses each.',
            'A cannon needs a screen to attack; the central cannon opening (moving a cannon to the middle file) is the most popular start.',
            'Keep your advisors and elephants at home: they are the general’s bodyguard.',
            'Look at the horse’s leg before planning a jump: one piece beside the horse can block two of its moves.',
            'Cannons are strongest early, when there are many screens; horses grow stronger in the endgame, on an open board.',
            'Cross the river with soldiers side by side, where they can protect each other.',
          ],
        },
      ],
    },
    {
      id: 'faq',
      title: 'Questions',
      blocks: [
        { p: 'Can I switch between Chinese characters and pictures? — Yes, in Settings. Your choice is remembered in this browser.' },
        { p: 'Why did I lose when I had no move although I was not in check? — In Xiangqi, having no legal move always loses.' },
        { p: 'May I give check again and again? — Only until the position repeats for the third time; if you checked with every move, you lose.' },
        { p: 'Why can my piece not leave its file? — Moving it would leave the two generals facing each other on an open file.' },
        { p: 'Does a soldier promote on the last rank? — No. It can still step sideways there, but never back.' },
        { p: 'Can a cannon jump over two pieces? — No: exactly one, and only to capture. A plain cannon move jumps over nothing.' },
        { p: 'Why was the game drawn with pieces still on the board? — Neither side had a chariot, horse, cannon or soldier left. Generals, advisors and elephants cannot cross the river, so nobody can attack.' },
      ],
    },
  ],
};

const checkers: RulesDoc = {
  intro:
    'American checkers (English draughts) is played on the dark squares of an 8 × 8 board. Pieces move diagonally, captures are compulsory, and a chain of jumps can change a game in a single move.',
  sections: [
    {
      id: 'board',
      title: 'The board and the start',
      blocks: [
        {
          p: 'Only the 32 dark squares are used. Each player has a dark square at the bottom-left corner. The squares are numbered 1 to 32: Black’s twelve men start on 1–12 and White’s on 21–32. Black moves first.',
        },
        { diagram: { fen: 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12', caption: 'The starting position with the square numbers. Black is at the bottom.', coords: true } },
      ],
    },
    {
      id: 'moves',
      title: 'Moving and capturing',
      blocks: [
        { p: 'A man moves one square diagonally forward to an empty dark square. It never moves backwards or sideways.' },
        { diagram: { fen: 'B:W30:B10', path: ['10'], targets: ['14', '15'], caption: 'The man on 10 can step to 14 or 15.', coords: true } },
        {
          p: 'A man captures by jumping over an adjacent enemy piece diagonally forward to the empty square just beyond. Capturing is compulsory: if any capture is possible, you must capture. If the same piece can jump again after landing, it must go on jumping in the same move. You may choose any capture, even one that takes fewer pieces, but you must finish it.',
        },
        { diagram: { fen: 'B:W14,23:B9', path: ['9', '18', '27'], caption: 'A double jump: 9 takes 14 and lands on 18, then takes 23 and lands on 27 (written 9x18x27).', coords: true } },
        { p: 'On Ttakji the pieces that must capture are ringed. Enter a multi-jump by clicking each landing square in turn; the path is drawn as you go.' },
        {
          p: 'A man that reaches the far row is crowned king. If it got there by jumping, the move ends there. A king moves and captures one square diagonally in any direction.',
        },
        { diagram: { fen: 'B:W30:BK18', path: ['18'], targets: ['14', '15', '22', '23'], caption: 'A king on 18 moves in all four directions.', coords: true } },
      ],
    },
    {
      id: 'captures',
      title: 'Forced captures and multi-jumps',
      blocks: [
        { p: 'When you can capture anywhere on the board, plain moves are not allowed — not even one that looks much better.' },
        { diagram: { fen: 'B:W18:B11,14', path: ['14'], targets: ['23'], must: ['14'], caption: 'Black must capture: 14x23 is the only legal move, and the man on 11 may not step.' } },
        { p: 'When several captures are possible you choose, even one that takes fewer pieces. Once the jumping piece lands where it can jump again, it must go on.' },
        {
          diagram: {
            fen: 'B:W14,15,22:B10',
            path: ['10'],
            targets: ['17', '19'],
            must: ['10'],
            caption: 'Black may take one piece with 10x19 or two with 10x17x26. After landing on 17, the man must jump on to 26.',
          },
        },
        { p: 'Captured pieces leave the board when the move ends, and no piece can be jumped twice in one move.' },
      ],
    },
    {
      id: 'crowning',
      title: 'Crowning',
      blocks: [
        { diagram: { fen: 'B:W26,27:B22', path: ['22', '31'], caption: '22x31: the man jumps into the far row and is crowned. The move ends there, although the new king could jump 27: it must wait for its next turn.' } },
        { p: 'A king wears a crown on the board. It steps and jumps one square at a time in all four diagonal directions, so it can attack men from behind and slip out of corners.' },
      ],
    },
    {
      id: 'draws',
      title: 'The 40-move rule',
      blocks: [
        { p: 'A move makes progress when it captures or moves a man. When both players have made 40 moves each (80 in a row) with no progress — only kings moving, nothing captured — the game is drawn. Any capture or man move starts the count again from zero.' },
        { p: 'For example, three kings chase two kings for a long time without a capture. When the draw is near, a counter appears under the board with the moves left; if it reaches zero, the server declares the draw.' },
        { p: 'A game is also drawn when the same position, with the same side to move, comes up for the third time, and after 400 moves in total.' },
      ],
    },
    {
      id: 'end',
      title: 'How a game ends',
      blocks: [
        {
          ul: [
            'You win when your opponent has no pieces left or no legal move.',
            'The same position with the same side to move for the third time: draw.',
            '40 moves by each player with no capture and no man moving: draw. A counter under the board shows the moves left when this draw is near.',
            '400 moves in total: draw.',
            'Resignation, running out of time, or a draw agreed by both players.',
          ],
        },
      ],
    },
    {
      id: 'tips',
      title: 'Tips',
      blocks: [
        {
          ul: [
            'Keep your back row (squares 1–4 for Black) filled as long as you can: it stops the opponent from crowning.',
            'Control the centre squares (14, 15, 18, 19).',
            'Because captures are forced, you can offer a piece to pull an enemy man into a position where you jump two back.',
            'Exchange pieces when you are ahead: the fewer pieces are left, the more an extra one counts.',
            'Do not send a man forward alone; without support it is easily trapped.',
            'Before each move, look at what your opponent will be forced to capture next.',
          ],
        },
      ],
    },
    {
      id: 'faq',
      title: 'Questions',
      blocks: [
        { p: 'Why can I not make the move I want? — Probably a capture is available somewhere: capturing is compulsory.' },
        { p: 'Can a man capture backwards? — No, only kings move and capture backwards.' },
        { p: 'Must I take the most pieces? — No. In American checkers you may choose any capture; you only have to finish the one you chose.' },
        { p: 'My man was crowned by a jump and could have jumped again. Why did the move stop? — Crowning ends the move.' },
        { p: 'How do I play a multi-jump? — Click the piece, then each landing square in turn; or type the squares, such as 9x18x27.' },
      ],
    },
  ],
};

const en: Record<VariantKey, RulesDoc> = { makruk, xiangqi, checkers };
export default en;
