"""Corrections of the shipped rule pages and legal pages, brought into existing databases.

The defaults (``content/*.md``) install a page only where none exists yet, so a database set up
before these corrections keeps the old sentences. Each entry below is one corrected passage:
(page, language, the sentence exactly as shipped before, the sentence as shipped now). Where a
page still holds the old sentence word for word, it is replaced; a sentence staff changed in the
admin no longer matches and stays as they wrote it. A page that changes gets a revision, as an
edit in the admin does (no editor: the site made it).

Among them: the two wrong rule statements (Dou Dizhu's four with two beats only a *lower* one,
in both languages; German Gan Deng Yan "eine 2 schlägt nur eine Bombe" read backwards); German
"Runde" for the game unit and "Partie" for the match, as at the table; "Multiplikator" as at the
table; singular "they" and the spaced en dash in English; the privacy page's self-service
deletion, guest counting per address, and the leaderboards.

A fresh database installs the corrected pages (0002), so nothing here matches there.
"""

from django.db import migrations

SENTENCES = [
    (
        "gongzhu",
        "de",
        "Ein Stichspiel für vier, bei dem keiner das Schwein will, alle hinter der Ziege her sind und eine einzige Kreuz-10 deine ganze Hand verdoppeln kann.",
        "Ein Stichspiel für vier, bei dem keiner das Schwein will, alle hinter der Ziege her sind und eine einzige Kreuz-10 dein ganzes Rundenergebnis verdoppeln kann.",
    ),
    (
        "gongzhu",
        "de",
        "Die Stände schwanken in beide Richtungen, und oft entscheidet ein einziger Stich die ganze Hand.",
        "Die Stände schwanken in beide Richtungen, und oft entscheidet ein einziger Stich die ganze Runde.",
    ),
    (
        "gongzhu",
        "de",
        "In der ersten Hand spielt aus, wer die [2S] hat – und zwar eine beliebige Karte, die Pik-2 selbst muss nicht kommen. In jeder weiteren Hand beginnt, wer in der Hand davor das Schwein kassiert hat.",
        "In der ersten Runde spielt aus, wer die [2S] hat – und zwar eine beliebige Karte, die Pik-2 selbst muss nicht kommen. In jeder weiteren Runde beginnt, wer in der Runde davor das Schwein kassiert hat.",
    ),
    (
        "gongzhu",
        "de",
        "| Aufgedeckt | Wirkung in dieser Hand |",
        "| Aufgedeckt | Wirkung in dieser Runde |",
    ),
    (
        "gongzhu",
        "de",
        "## So läuft eine Hand",
        "## So läuft eine Runde",
    ),
    (
        "gongzhu",
        "de",
        "Eine Hand hat 13 Stiche.",
        "Eine Runde hat 13 Stiche.",
    ),
    (
        "gongzhu",
        "de",
        "Das Ergebnis der Hand kommt auf deinen Gesamtstand. Die vier Handergebnisse ergeben zusammen keine feste Summe;",
        "Das Ergebnis der Runde kommt auf deinen Gesamtstand. Die vier Rundenergebnisse ergeben zusammen keine feste Summe;",
    ),
    (
        "gongzhu",
        "de",
        "Einen eigenen Bonus dafür gibt es nicht – die Regeln oben ergeben schon +800, die Übersicht nach der Hand weist es nur eigens aus.",
        "Einen eigenen Bonus dafür gibt es nicht – die Regeln oben ergeben schon +800, die Übersicht nach der Runde weist es nur eigens aus.",
    ),
    (
        "gongzhu",
        "de",
        "## Das Ende des Spiels",
        "## Das Ende der Partie",
    ),
    (
        "gongzhu",
        "de",
        "Ein Spiel besteht aus mehreren Händen. Nach jeder Hand ist Schluss, wenn mindestens ein Gesamtstand bei −1000 oder darunter liegt **und** genau ein Spieler den höchsten Stand hat – der gewinnt. Teilen sich zwei oder mehr Spieler die Spitze, wird noch eine Hand gegeben, und zwar so lange, bis nach einer Hand einer allein vorn liegt.",
        "Eine Partie besteht aus mehreren Runden. Nach jeder Runde ist Schluss, wenn mindestens ein Gesamtstand bei −1000 oder darunter liegt **und** genau ein Spieler den höchsten Stand hat – der gewinnt. Teilen sich zwei oder mehr Spieler die Spitze, wird noch eine Runde gegeben, und zwar so lange, bis nach einer Runde einer allein vorn liegt.",
    ),
    (
        "gongzhu",
        "de",
        "Bei −1010, 150, 120 und −300 ist das Spiel vorbei, und die 150 gewinnt.",
        "Bei −1010, 150, 120 und −300 ist die Partie vorbei, und die 150 gewinnt.",
    ),
    (
        "gongzhu",
        "de",
        "- vor der Hand wird nicht geschoben;",
        "- vor der Runde wird nicht geschoben;",
    ),
    (
        "gongzhu",
        "de",
        "- in der ersten Hand spielt der Besitzer der [2S] aus, und zwar eine beliebige Karte;",
        "- in der ersten Runde spielt der Besitzer der [2S] aus, und zwar eine beliebige Karte;",
    ),
    (
        "gongzhu",
        "de",
        "drei Karten vor jeder Hand weitergeben (wie bei Hearts), Herz erst nach dem „Brechen“, eine Pflicht, mit der Pik-2 zu eröffnen, ein Extrabonus für alle 16 Punktkarten zusätzlich zur Verdopplung, andere Werte für die kleinen Herzen und Spiele, die bei −1000 auch mit Gleichstand an der Spitze sofort enden.",
        "drei Karten vor jeder Runde weitergeben (wie bei Hearts), Herz erst nach dem „Brechen“, eine Pflicht, mit der Pik-2 zu eröffnen, ein Extrabonus für alle 16 Punktkarten zusätzlich zur Verdopplung, andere Werte für die kleinen Herzen und Partien, die bei −1000 auch mit Gleichstand an der Spitze sofort enden.",
    ),
    (
        "gongzhu",
        "de",
        "## Tipps für bessere Hände",
        "## Tipps",
    ),
    (
        "gongzhu",
        "de",
        "- **Die Sperre für aufgedeckte Karten vergessen.** Solange du noch andere Karten der Farbe hast, darfst du mit der aufgedeckten Karte weder eröffnen noch sie in den ersten Stich dieser Farbe legen.",
        "- **Die Sperre für aufgedeckte Karten vergessen.** Solange du noch andere Karten der Farbe hast, darfst du mit der aufgedeckten Karte weder eröffnen noch sie in den ersten Stich dieser Farbe legen – bis die Farbe einmal ausgespielt wurde.",
    ),
    (
        "gongzhu",
        "de",
        "In der ersten Hand, wer die [2S] hat.",
        "In der ersten Runde, wer die [2S] hat.",
    ),
    (
        "gongzhu",
        "de",
        "Ab der zweiten Hand beginnt, wer in der Hand davor das Schwein bekommen hat.",
        "Ab der zweiten Runde beginnt, wer in der Runde davor das Schwein bekommen hat.",
    ),
    (
        "gongzhu",
        "de",
        "Sobald ihre Farbe in dieser Hand einmal ausgespielt wurde.",
        "Sobald ihre Farbe in dieser Runde einmal ausgespielt wurde.",
    ),
    (
        "gongzhu",
        "de",
        "Deckst du das Schwein auf und ein anderer fängt es sich, zahlt er −200, nicht du.",
        "Deckst du das Schwein auf und ein anderer fängt es sich, bekommt er die −200, nicht du.",
    ),
    (
        "gongzhu",
        "de",
        "Die Übersicht nach der Hand nennt es eigens, damit es dir auffällt.",
        "Die Übersicht nach der Runde nennt es eigens, damit es dir auffällt.",
    ),
    (
        "gongzhu",
        "de",
        "Jemand steht unter −1000 – warum geht das Spiel weiter?",
        "Jemand steht unter −1000 – warum geht die Partie weiter?",
    ),
    (
        "gongzhu",
        "de",
        "Es wird so lange weitergespielt, bis nach einer Hand einer allein vorn liegt.",
        "Es wird so lange weitergespielt, bis nach einer Runde einer allein vorn liegt.",
    ),
    (
        "gongzhu",
        "de",
        "Kann ich die Spielstärke mitten in der Hand ändern?",
        "Kann ich die Spielstärke mitten in der Runde ändern?",
    ),
    (
        "gongzhu",
        "de",
        "die neue Stufe gilt ab der nächsten Hand.",
        "die neue Stufe gilt ab der nächsten Runde.",
    ),
    (
        "gongzhu",
        "en",
        "A trick-taking game for four in which nobody wants the pig, everybody wants the goat, and one small club can double your whole hand.",
        "A trick-taking game for four in which nobody wants the pig, everybody wants the goat, and one ten of clubs can double your whole hand.",
    ),
    (
        "gongzhu",
        "en",
        "Besides the hearts and the queen of spades — the pig — there is a goat that is worth having, a transformer that doubles whatever you collect, cards that can be exposed to raise the stakes, and a spectacular turnaround if one player manages to take every heart.",
        "Besides the hearts and the queen of spades – the pig – there is a goat that is worth having, a transformer that doubles whatever you collect, cards that can be exposed to raise the stakes, and a spectacular turnaround if one player manages to take every heart.",
    ),
    (
        "gongzhu",
        "en",
        "In the first hand, whoever holds the [2S] leads to the first trick — with any card they like;",
        "In the first hand, whoever holds the [2S] leads to the first trick – with any card they like;",
    ),
    (
        "gongzhu",
        "en",
        "An exposed card doubles its own effect for **whoever ends up taking it** — which is not necessarily the player who exposed it:",
        "An exposed card doubles its own effect for **whoever ends up taking it** – which is not necessarily the player who exposed it:",
    ),
    (
        "gongzhu",
        "en",
        "it may not be played into the first trick in which its suit is led, and you may not lead that suit with it — unless it is your only card of that suit.",
        "it may not be played into the first trick in which its suit is led, and you may not lead that suit with it – unless it is your only card of that suit.",
    ),
    (
        "gongzhu",
        "en",
        "If you have none, play any card you like — this is your chance to get rid of the pig or an expensive heart.",
        "If you have none, play any card you like – this is your chance to get rid of the pig or an expensive heart.",
    ),
    (
        "gongzhu",
        "en",
        "Only 16 cards in the deck score — the **point cards**:",
        "Only 16 cards in the deck score – the **point cards**:",
    ),
    (
        "gongzhu",
        "en",
        "The [4H], [3H] and [2H] are worth nothing, but they still count as point cards — that matters for the transformer.",
        "The [4H], [3H] and [2H] are worth nothing, but they still count as point cards – that matters for the transformer.",
    ),
    (
        "gongzhu",
        "en",
        "If you took other point cards as well, it doubles their sum — or multiplies it by 4 if the [TC] was exposed.",
        "If you took other point cards as well, it doubles their sum – or multiplies it by 4 if the [TC] was exposed.",
    ),
    (
        "gongzhu",
        "en",
        "There is no separate bonus for this — the rules above already give +800, and the hand summary names it.",
        "There is no separate bonus for this – the rules above already give +800, and the hand summary names it.",
    ),
    (
        "gongzhu",
        "en",
        "If two or more players share the top, another hand is dealt — as many as it takes until one player leads alone at the end of a hand.",
        "If two or more players share the top, another hand is dealt – as many as it takes until one player leads alone at the end of a hand.",
    ),
    (
        "gongzhu",
        "en",
        "**Guard the pig.** With the [QS] and four or five low spades you can duck every spade lead and wait until someone plays the king or ace of spades, or runs out of spades — then the pig goes to them.",
        "**Guard the pig.** With the [QS] and four or five low spades you can duck every spade lead and wait until someone plays the king or ace of spades, or runs out of spades – then the pig goes to them.",
    ),
    (
        "gongzhu",
        "en",
        "**Stop a run at all hearts.** If one player has taken every heart played so far, they may be going for all of them.",
        "**Stop a player going for all the hearts.** If one player has taken every heart played so far, they may be going for all of them.",
    ),
    (
        "gongzhu",
        "en",
        "- **Forgetting the exposed-card restriction.** You cannot lead a suit with your exposed card, or play it into the first trick of that suit, while you hold other cards of the suit.",
        "- **Forgetting the exposed-card restriction.** You cannot lead a suit with your exposed card, or play it into the first trick of that suit, while you hold other cards of the suit and the suit has not been led yet.",
    ),
    (
        "gongzhu",
        "en",
        "Before that you may not lead that suit with it, and you may not play it into the first trick of its suit — unless it is your only card of that suit.",
        "Before that you may not lead that suit with it, and you may not play it into the first trick of its suit – unless it is your only card of that suit.",
    ),
    (
        "gongzhu",
        "en",
        "If you expose the pig and someone else takes it, they pay −200, not you.",
        "If you expose the pig and someone else takes it, they take the −200, not you.",
    ),
    (
        "gongzhu",
        "en",
        "The match should be over — somebody is below −1000.",
        "The match should be over – somebody is below −1000.",
    ),
    (
        "gandengyan",
        "de",
        "Jeder andere zahlt Restkarten × Faktor:",
        "Jeder andere zahlt Restkarten × Multiplikator:",
    ),
    (
        "gandengyan",
        "de",
        "Gegen ein Paar hilft eine einzelne 2 nicht, und eine 2 schlägt nur eine Bombe.",
        "Gegen ein Paar hilft eine einzelne 2 nicht, und eine 2 ist nur mit einer Bombe zu schlagen.",
    ),
    (
        "gandengyan",
        "de",
        "Jeder Verlierer zahlt **Restkarten × Faktor**. Der Faktor beginnt bei 1 und",
        "Jeder Verlierer zahlt **Restkarten × Multiplikator**. Der Multiplikator beginnt bei 1 und",
    ),
    (
        "gandengyan",
        "de",
        "Platz 1 bleibt auf zwei Karten sitzen und zahlt 2. Platz 2 hat noch einen Joker, seine drei Karten zählen also doppelt:",
        "Platz 2 bleibt auf zwei Karten sitzen und zahlt 2. Platz 3 hat noch einen Joker, seine drei Karten zählen also doppelt:",
    ),
    (
        "gandengyan",
        "de",
        "Platz 0 bekommt 8.",
        "Platz 1 bekommt 8.",
    ),
    (
        "gandengyan",
        "de",
        "Platz 0:",
        "Platz 1:",
    ),
    (
        "gandengyan",
        "de",
        "Platz 1 hat einen Joker:",
        "Platz 2 hat einen Joker:",
    ),
    (
        "gandengyan",
        "de",
        "Platz 3 hat nie gelegt (Frühling):",
        "Platz 4 hat nie gelegt (Frühling):",
    ),
    (
        "gandengyan",
        "de",
        "Platz 2 ist raus und kassiert 16 + 24 + 40 = 80.",
        "Platz 3 ist raus und kassiert 16 + 24 + 40 = 80.",
    ),
    (
        "gandengyan",
        "de",
        "Vier Bomben (× 16), und Platz 3 hat nie gelegt und hält beide Joker: 16 × 2 × 2 × 2 = 128, gedeckelt auf 64 – Platz 3 zahlt also 5 × 64 = 320. Platz 0 zahlt 4 × 16 = 64, Platz 1 zahlt 3 × 16 = 48, Platz 2 bekommt 432.",
        "Vier Bomben (× 16), und Platz 4 hat nie gelegt und hält beide Joker: 16 × 2 × 2 × 2 = 128, gedeckelt auf 64 – Platz 4 zahlt also 5 × 64 = 320. Platz 1 zahlt 4 × 16 = 64, Platz 2 zahlt 3 × 16 = 48, Platz 3 bekommt 432.",
    ),
    (
        "gandengyan",
        "de",
        "Zwei Joker allein sind immer die Joker-Bombe, die alles schlägt – und für den Faktor als Bombe zählt.",
        "Zwei Joker allein sind immer die Joker-Bombe, die alles schlägt – und für den Multiplikator als Bombe zählt.",
    ),
    (
        "gandengyan",
        "de",
        "Der Faktor ist bei 64 gedeckelt, egal wie viele Bomben und Joker zusammenkommen.",
        "Der Multiplikator ist bei 64 gedeckelt, egal wie viele Bomben und Joker zusammenkommen.",
    ),
    (
        "gandengyan",
        "en",
        "beat the last play with the same shape exactly one rank higher — or sit there and stare.",
        "beat the last play with the same shape exactly one rank higher – or sit there and stare.",
    ),
    (
        "gandengyan",
        "en",
        'Gan Deng Yan (干瞪眼) means something like "staring eyes" — which is exactly what you do when you cannot beat the card on the table.',
        'Gan Deng Yan (干瞪眼) means something like "staring eyes" – which is exactly what you do when you cannot beat the card on the table.',
    ),
    (
        "gandengyan",
        "en",
        "## How a hand goes",
        "## How a round goes",
    ),
    (
        "gandengyan",
        "en",
        "The leader must play something valid — any kind listed below.",
        "The leader must play something valid – any kind listed below.",
    ),
    (
        "gandengyan",
        "en",
        "The round ends **the moment** somebody has no cards left — even in the middle of a trick.",
        "The round ends **the moment** somebody has no cards left – even in the middle of a trick.",
    ),
    (
        "gandengyan",
        "en",
        "There are no triples with kickers and no airplanes here — three of a kind is simply a bomb.",
        "There are no triples with kickers and no airplanes here – three of a kind is simply a bomb.",
    ),
    (
        "gandengyan",
        "en",
        "A straight 5-6-7 only by 6-7-8 — same length, lowest card one higher.",
        "A straight 5-6-7 only by 6-7-8 – same length, lowest card one higher.",
    ),
    (
        "gandengyan",
        "en",
        "- **The 2 jumps the queue.** A single 2 beats any single that is not a 2 — on an ace, but also straight on a 3.",
        "- **The 2 jumps the queue.** A single 2 beats any single that is not a 2 – on an ace, but also directly on a 3.",
    ),
    (
        "gandengyan",
        "en",
        "each can stand for any rank from 3 to ace — never a 2.",
        "each can stand for any rank from 3 to ace – never a 2.",
    ),
    (
        "gandengyan",
        "en",
        "If your selection can be read more than one way — [7S] [8H] [BJ] is 6-7-8 or 7-8-9 — you choose which one you mean.",
        "If your selection can be read more than one way – [7S] [8H] [BJ] is 6-7-8 or 7-8-9 – you choose which one you mean.",
    ),
    (
        "gandengyan",
        "en",
        "Seat 1 is caught with two cards and pays 2. Seat 2 still holds a joker, so its three cards count double:",
        "Seat 2 is caught with two cards and pays 2. Seat 3 still holds a joker, so its three cards count double:",
    ),
    (
        "gandengyan",
        "en",
        "Seat 0 collects 8.",
        "Seat 1 collects 8.",
    ),
    (
        "gandengyan",
        "en",
        "Seat 0:",
        "Seat 1:",
    ),
    (
        "gandengyan",
        "en",
        "Seat 1 holds a joker:",
        "Seat 2 holds a joker:",
    ),
    (
        "gandengyan",
        "en",
        "Seat 3 never played a card (spring):",
        "Seat 4 never played a card (spring):",
    ),
    (
        "gandengyan",
        "en",
        "Seat 2 went out and collects 16 + 24 + 40 = 80.",
        "Seat 3 went out and collects 16 + 24 + 40 = 80.",
    ),
    (
        "gandengyan",
        "en",
        "Four bombs (× 16), and seat 3 never played and holds both jokers: 16 × 2 × 2 × 2 = 128, capped at 64, so seat 3 pays 5 × 64 = 320. Seat 0 pays 4 × 16 = 64, seat 1 pays 3 × 16 = 48, and seat 2 collects 432.",
        "Four bombs (× 16), and seat 4 never played and holds both jokers: 16 × 2 × 2 × 2 = 128, capped at 64, so seat 4 pays 5 × 64 = 320. Seat 1 pays 4 × 16 = 64, seat 2 pays 3 × 16 = 48, and seat 3 collects 432.",
    ),
    (
        "gandengyan",
        "en",
        "**Think before you bomb.** A bomb wins the lead, but it also doubles the stake for the whole table — including you, if you are left with a big hand.",
        "**Think before you bomb.** A bomb wins the lead, but it also doubles the stake for the whole table – including you, if you are left with a big hand.",
    ),
    (
        "gandengyan",
        "en",
        "- **Trying to play a joker alone.** Not allowed — except as your very last card, on your own lead, with the stock empty.",
        "- **Trying to play a joker alone.** Not allowed – except as your very last card, on your own lead, with the stock empty.",
    ),
    (
        "gandengyan",
        "en",
        "A single 2 does not — it beats singles only.",
        "A single 2 does not – it beats singles only.",
    ),
    (
        "gandengyan",
        "en",
        "The two jokers on their own are always the joker bomb, which beats everything — and counts as a bomb for the multiplier.",
        "The two jokers on their own are always the joker bomb, which beats everything – and counts as a bomb for the multiplier.",
    ),
    (
        "doudizhu",
        "de",
        "Nach zwei Pässen in Folge spielt neu aus, wer zuletzt gelegt hat.",
        "Passen zwei hintereinander, spielt neu aus, wer zuletzt gelegt hat.",
    ),
    (
        "doudizhu",
        "de",
        "Vor jeder Hand wird gereizt, wer **Grundbesitzer** wird.",
        "Vor jeder Runde wird gereizt, wer **Grundbesitzer** wird.",
    ),
    (
        "doudizhu",
        "de",
        "Die Bauern gewinnen oder verlieren gemeinsam, aber nur für diese eine Hand.",
        "Die Bauern gewinnen oder verlieren gemeinsam, aber nur für diese eine Runde.",
    ),
    (
        "doudizhu",
        "de",
        "Die erste Hand gibst du, danach wandert das Geben mit jeder Hand einen Platz weiter – ganz gleich, wer gewonnen hat.",
        "Die erste Runde gibst du, danach wandert das Geben mit jeder Runde einen Platz weiter – ganz gleich, wer gewonnen hat.",
    ),
    (
        "doudizhu",
        "de",
        "Wer einmal gepasst hat, reizt in dieser Hand nicht mehr mit.",
        "Wer einmal gepasst hat, reizt in dieser Runde nicht mehr mit.",
    ),
    (
        "doudizhu",
        "de",
        "Das Gebot ist der **Grundeinsatz** der Hand.",
        "Das Gebot ist der **Grundeinsatz** der Runde.",
    ),
    (
        "doudizhu",
        "de",
        "## So läuft eine Hand",
        "## So läuft eine Runde",
    ),
    (
        "doudizhu",
        "de",
        "Die Hand ist vorbei, sobald einer keine Karten mehr hat.",
        "Die Runde ist vorbei, sobald einer keine Karten mehr hat.",
    ),
    (
        "doudizhu",
        "de",
        "- Es verdoppelt sich für **jede Bombe** und für **die Rakete**, die in der Hand gefallen sind – egal auf welcher Seite.",
        "- Es verdoppelt sich für **jede Bombe** und für **die Rakete**, die in der Runde gefallen sind – egal auf welcher Seite.",
    ),
    (
        "doudizhu",
        "de",
        "Ein Spiel dauert 1, 3, 5 oder 10 Hände (wenn du nichts anderes wählst, 5), die Stände laufen mit.",
        "Eine Partie dauert 1, 3, 5 oder 10 Runden (wenn du nichts anderes wählst, 5), die Stände laufen mit.",
    ),
    (
        "doudizhu",
        "de",
        "Der Grundbesitzer hat 2 geboten, eine Bombe gelegt und ist raus, bevor ein Bauer zum Zug kam:",
        "Der Grundbesitzer hat 2 geboten, eine Bombe gelegt und ist raus, bevor ein Bauer auch nur eine Karte gelegt hatte:",
    ),
    (
        "doudizhu",
        "de",
        "- ein Spiel über 1, 3, 5 oder 10 Hände.",
        "- eine Partie über 1, 3, 5 oder 10 Runden.",
    ),
    (
        "doudizhu",
        "de",
        "**Bomben verdoppeln für alle.** Eine Bombe, die dir Ausspiel und Hand sichert, lohnt sich.",
        "**Bomben verdoppeln für alle.** Eine Bombe, die dir Ausspiel und Runde sichert, lohnt sich.",
    ),
    (
        "doudizhu",
        "de",
        "- **Den Vierling mit zwei für eine Bombe halten.** Er schlägt nur einen höheren Vierling mit zwei;",
        "- **Den Vierling mit zwei für eine Bombe halten.** Er schlägt nur einen niedrigeren Vierling mit zwei;",
    ),
    (
        "doudizhu",
        "de",
        "Das Geben wandert mit jeder Hand einen Platz weiter, egal wer gewonnen hat.",
        "Das Geben wandert mit jeder Runde einen Platz weiter, egal wer gewonnen hat.",
    ),
    (
        "doudizhu",
        "de",
        "Für das verworfene Geben wird nichts abgerechnet.",
        "Für das eingeworfene Spiel wird nichts abgerechnet.",
    ),
    (
        "doudizhu",
        "de",
        "Jede Bombe und die Rakete verdoppeln den Einsatz der ganzen Hand, egal welche Seite sie gelegt hat.",
        "Jede Bombe und die Rakete verdoppeln den Einsatz der ganzen Runde, egal welche Seite sie gelegt hat.",
    ),
    (
        "doudizhu",
        "de",
        "Wie lange dauert ein Spiel?",
        "Wie lange dauert eine Partie?",
    ),
    (
        "doudizhu",
        "de",
        "Du wählst zu Beginn 1, 3, 5 oder 10 Hände, vorgegeben sind 5. Die Stände werden von Hand zu Hand fortgeschrieben.",
        "Du wählst zu Beginn 1, 3, 5 oder 10 Runden, vorgegeben sind 5. Die Stände werden von Runde zu Runde fortgeschrieben.",
    ),
    (
        "doudizhu",
        "en",
        "Beat the last play with the same kind and the same number of cards, but higher — or pass.",
        "Beat the last play with the same kind and the same number of cards, but higher – or pass.",
    ),
    (
        "doudizhu",
        "en",
        'Dou Dizhu (斗地主, "fight the landlord") is probably the most played card game in China today — at kitchen tables, in tea houses and in apps with millions of players.',
        'Dou Dizhu (斗地主, "fight the landlord") is probably the most played card game in China today – at kitchen tables, in tea houses and in apps with millions of players.',
    ),
    (
        "doudizhu",
        "en",
        "the landlord on his own, or the peasants as soon as **either** of them is out.",
        "the landlord alone, or the peasants as soon as **either** of them is out.",
    ),
    (
        "doudizhu",
        "en",
        "the last **three cards** stay face down on the table.",
        "the last **three cards** stay face down on the table (the **kitty**).",
    ),
    (
        "doudizhu",
        "en",
        "In your turn you either **bid** more than the current highest bid — 1, 2 or 3 — or **pass**.",
        "In your turn you either **bid** more than the current highest bid – 1, 2 or 3 – or **pass**.",
    ),
    (
        "doudizhu",
        "en",
        "he now has 20 cards and leads the first trick.",
        "the landlord now has 20 cards and leads the first trick.",
    ),
    (
        "doudizhu",
        "en",
        "When two players in a row have passed, the player who made the last play leads again, with anything he likes.",
        "When two players in a row have passed, the player who made the last play leads again, with anything they like.",
    ),
    (
        "doudizhu",
        "en",
        "A pair kicker must be a real pair of another rank — two jokers are never a pair.",
        "A pair kicker must be a real pair of another rank – two jokers are never a pair.",
    ),
    (
        "doudizhu",
        "en",
        "the peasants win and the landlord played nothing after his opening lead.",
        "the peasants win and the landlord played nothing after their opening lead.",
    ),
    (
        "doudizhu",
        "en",
        "If the landlord wins, each peasant pays him the stake. If the peasants win, the landlord pays the stake to each of them — it makes no difference which peasant went out.",
        "If the landlord wins, each peasant pays the landlord the stake. If the peasants win, the landlord pays the stake to each of them – it makes no difference which peasant went out.",
    ),
    (
        "doudizhu",
        "en",
        "If the landlord wins, he gets 12 from each peasant, +24 in all; if the peasants win, he pays 12 to each.",
        "A winning landlord gets 12 from each peasant, +24 in all; a losing one pays 12 to each.",
    ),
    (
        "doudizhu",
        "en",
        "**As a peasant, work with your partner.** Don't beat your partner's play when he is doing well — let him run.",
        "**As a peasant, work with your partner.** Don't beat your partner's play when they are doing well – let them run.",
    ),
    (
        "doudizhu",
        "en",
        "Leading a low single tells your partner you are weak and he should take control.",
        "Leading a low single tells your partner you are weak and they should take control.",
    ),
    (
        "doudizhu",
        "en",
        "the other one feeds him low cards and saves his high ones for stopping the landlord.",
        "the other one feeds them low cards and saves their own high ones for stopping the landlord.",
    ),
    (
        "doudizhu",
        "en",
        "Once they are gone, your high singles and pairs are hard to stop — unless someone still holds a bomb.",
        "Once they are gone, your high singles and pairs are hard to stop – unless someone still holds a bomb.",
    ),
    (
        "doudizhu",
        "en",
        "- **Treating four with two as a bomb.** It only beats a higher four with two; a single bomb beats it.",
        "- **Treating four with two as a bomb.** It only beats a lower four with two; any bomb beats it.",
    ),
    (
        "doudizhu",
        "en",
        "- **Bombing your partner.** Taking the lead from the other peasant only helps the landlord — and doubles the stake.",
        "- **Bombing your partner.** Taking the lead from the other peasant only helps the landlord – and doubles the stake.",
    ),
    (
        "doudizhu",
        "en",
        "A chain can only be beaten by a chain of the same length with a higher lowest card — or by a bomb or the rocket.",
        "A chain can only be beaten by a chain of the same length with a higher lowest card – or by a bomb or the rocket.",
    ),
    (
        "doudizhu",
        "en",
        "Two jokers never make a pair kicker — together they are the rocket.",
        "Two jokers never make a pair kicker – together they are the rocket.",
    ),
    (
        "impressum",
        "en",
        "We wrote the rules on this site with care, but a mistake can still slip in — if you spot one, please tell us.",
        "We wrote the rules on this site with care, but a mistake can still slip in – if you spot one, please tell us.",
    ),
    (
        "privacy",
        "de",
        "| Anzeigename (freiwillig) | wird am Tisch statt des Benutzernamens gezeigt |",
        "| Anzeigename (freiwillig) | wird am Tisch, in den Bestenlisten und auf deiner Spielerseite statt des Benutzernamens gezeigt |",
    ),
    (
        "privacy",
        "de",
        "Meldest du dich als Gast später an, behältst du dasselbe Konto samt Partien.",
        "Registrierst du dich als Gast später, behältst du dasselbe Konto samt Partien.",
    ),
    (
        "privacy",
        "de",
        "\n## Cookies",
        "\n## Bestenlisten und Spielerseiten\n\nHast du dich registriert und genug gewertete Partien gespielt, erscheinst du in den öffentlichen Bestenlisten: mit deinem Anzeigenamen (oder, wenn du keinen gewählt hast, deinem Benutzernamen), deiner Wertung und der Zahl deiner gewerteten Partien. Jeder Eintrag führt zu deiner Spielerseite, die jeder sehen kann: Wertungen, ihr Verlauf und die Zahlen aus deinen Partien. Gäste stehen nicht in den Bestenlisten. Rechtsgrundlage ist Art. 6 Abs. 1 lit. b DSGVO: Die Wertung und der Vergleich mit anderen gehören zum Angebot.\n\n## Cookies",
    ),
    (
        "privacy",
        "de",
        "Rechtsgrundlage ist unser berechtigtes Interesse, Konten vor dem Erraten von Passwörtern zu schützen (Art. 6 Abs. 1 lit. f DSGVO).",
        "Rechtsgrundlage ist unser berechtigtes Interesse, Konten vor dem Erraten von Passwörtern zu schützen (Art. 6 Abs. 1 lit. f DSGVO).\n\nDamit niemand massenhaft Gastkonten anlegt, zählen wir, wie viele Gastspiele von einer IP-Adresse aus begonnen werden; ab einer Grenze pro Stunde musst du dich registrieren oder später wiederkommen. Gespeichert wird dafür nur ein Prüfwert (Hash) der Adresse, nicht die Adresse selbst, und der Zähler verfällt nach einer Stunde. Rechtsgrundlage ist unser berechtigtes Interesse, die Seite vor Missbrauch zu schützen (Art. 6 Abs. 1 lit. f DSGVO).",
    ),
    (
        "privacy",
        "de",
        "Möchtest du es löschen lassen, schreib uns an die Adresse oben; wir löschen dann Konto und Partien.",
        "Du kannst dein Konto jederzeit selbst löschen (Profil → „Konto löschen“); damit sind Konto, Wertungen und deine Partien gegen Computergegner weg. Partien, die du mit anderen Menschen gespielt hast, bleiben für sie erhalten; dein Platz heißt dort dann „gelöschter Spieler“. Du kannst uns auch schreiben, an die Adresse oben.",
    ),
    (
        "privacy",
        "en",
        "When you sign up — or start playing straight away as a guest, in which case we create a guest account for you — we store:",
        "When you sign up – or start playing straight away as a guest, in which case we create a guest account for you – we store:",
    ),
    (
        "privacy",
        "en",
        "| Display name (optional) | shown at the table instead of your username |",
        "| Display name (optional) | shown at the table, on the leaderboards and on your player page instead of your username |",
    ),
    (
        "privacy",
        "en",
        "\n## Cookies",
        "\n## Leaderboards and player pages\n\nOnce you have signed up and played enough rated matches, you appear on the public leaderboards with your display name (or your username if you have not chosen one), your rating and the number of your rated matches. Each entry links to your player page, which anyone can see: your ratings, their course and the figures from your matches. Guests are not on the leaderboards. The legal basis is Art. 6(1)(b) GDPR: ratings and comparing them with others are part of what the site offers.\n\n## Cookies",
    ),
    (
        "privacy",
        "en",
        "The legal basis is our legitimate interest in protecting accounts from password guessing (Art. 6(1)(f) GDPR).",
        "The legal basis is our legitimate interest in protecting accounts from password guessing (Art. 6(1)(f) GDPR).\n\nTo stop anyone from creating guest accounts in bulk, we count how many guest games are started from one IP address; above a limit per hour you have to sign up or come back later. For this we store only a hash of the address, not the address itself, and the count expires after an hour. The legal basis is our legitimate interest in protecting the site from misuse (Art. 6(1)(f) GDPR).",
    ),
    (
        "privacy",
        "en",
        "If you want it deleted, write to the address above and we will delete the account and its games.",
        'You can delete your account yourself at any time (Profile → "Delete account"), which removes the account, its ratings and its games against computer players. Games you played with other people stay for them, with your seat shown as "deleted player". You can also write to us at the address above.',
    ),
]


def _texts(page, faqs):
    """Every text of a page that a sentence can stand in: (owner, field) pairs."""
    yield from ((page, name) for name in ("title", "lead", "key_points", "body"))
    for faq in faqs:
        yield from ((faq, name) for name in ("question", "answer"))


def correct(apps, schema_editor=None) -> int:
    """Replace each old sentence where a page still holds it exactly; returns the pages changed."""
    Page = apps.get_model("rules", "Page")
    Revision = apps.get_model("rules", "Revision")
    by_page: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for slug, language, old, new in SENTENCES:
        by_page.setdefault((slug, language), []).append((old, new))
    changed = 0
    for (slug, language), pairs in by_page.items():
        page = Page.objects.filter(slug=slug, language=language).first()
        if page is None:
            continue
        faqs = list(page.faqs.all())
        touched = set()
        for owner, name in _texts(page, faqs):
            text = getattr(owner, name)
            for old, new in pairs:
                # A passage that only gained text still holds its old words: once the new
                # text is there, it is not added again.
                if old in text and not (old in new and new in text):
                    text = text.replace(old, new)
            if text != getattr(owner, name):
                setattr(owner, name, text)
                touched.add(owner)
        if not touched:
            continue
        for owner in touched:
            owner.save()
        Revision.objects.create(
            page=page,
            title=page.title,
            lead=page.lead,
            key_points=page.key_points,
            body=page.body,
            faqs=[{"question": f.question, "answer": f.answer, "order": f.order} for f in faqs],
            is_published=page.is_published,
        )
        changed += 1
    return changed


def load_corrections(apps, schema_editor):
    correct(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [("rules", "0003_page_choices_from_registry")]

    operations = [migrations.RunPython(load_corrections, migrations.RunPython.noop)]
