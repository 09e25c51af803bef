"""Frozen, typed card definitions (see ../README: "How to add a card").

Printed characteristics come from MTGJSON-format data; behaviour is data over a closed
vocabulary of effects named after the rules' verbs. This module holds only the types; the
loader in :mod:`server.cards` validates data files into them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from server.cards.mana import ManaCost


class TargetKind(Enum):
    """What a target may be (rule 115.1): the noun phrase after the word "target"."""

    #: "any target": a creature, player, planeswalker or battle (rule 115.4).
    ANY = "any"
    PLAYER = "player"
    #: "target opponent" (rule 102.2).
    OPPONENT = "opponent"
    CREATURE = "creature"
    CREATURE_OR_PLANESWALKER = "creature_or_planeswalker"
    PLAYER_OR_PLANESWALKER = "player_or_planeswalker"
    #: "target planeswalker" (rule 306).
    PLANESWALKER = "planeswalker"
    ARTIFACT_OR_ENCHANTMENT = "artifact_or_enchantment"
    #: "target spell": an object on the stack that is a spell (rule 112.1).
    SPELL = "spell"
    INSTANT_OR_SORCERY_SPELL = "instant_or_sorcery_spell"
    SPELL_OR_CREATURE = "spell_or_creature"
    PERMANENT = "permanent"
    NONLAND_PERMANENT = "nonland_permanent"
    ARTIFACT = "artifact"
    ENCHANTMENT = "enchantment"
    #: "target creature card from your graveyard" (rule 115.1 cards in zones).
    CREATURE_CARD_IN_YOUR_GRAVEYARD = "creature_card_in_your_graveyard"
    CARD_IN_YOUR_GRAVEYARD = "card_in_your_graveyard"
    INSTANT_OR_SORCERY_CARD_IN_YOUR_GRAVEYARD = "instant_or_sorcery_card_in_your_graveyard"
    #: "target permanent card" (rule 110.4b): artifact, battle, creature, enchantment,
    #: land or planeswalker.
    PERMANENT_CARD_IN_YOUR_GRAVEYARD = "permanent_card_in_your_graveyard"
    #: "target card from a graveyard": a card in any player's graveyard (rules 115.2, 404.1).
    CARD_IN_A_GRAVEYARD = "card_in_a_graveyard"
    #: "target creature card from a graveyard": any player's (rules 115.2, 404.1).
    CREATURE_CARD_IN_A_GRAVEYARD = "creature_card_in_a_graveyard"
    #: "target activated or triggered ability": an ability on the stack (rules 115.2, 113.3;
    #: mana abilities never use the stack, 605.3b).
    ACTIVATED_OR_TRIGGERED_ABILITY = "activated_or_triggered_ability"


@dataclass(frozen=True, slots=True)
class TargetReq:
    """One instance of the word "target" (rule 115.1) with its number and restrictions."""

    kind: TargetKind
    #: How many targets this instance names ("two target creatures").
    count: int = 1
    #: "up to N": the player announces how many, 0 to N (rule 601.2c).
    up_to: bool = False
    #: "target tapped creature": only tapped permanents qualify.
    tapped: bool = False
    #: "with mana value 3 or less" (rule 202.3).
    max_mana_value: int | None = None
    #: "with power 4 or greater".
    min_power: int | None = None
    #: "with power 2 or less" (after the layers, rule 613.4).
    max_power: int | None = None
    #: "creature you control" / "creature you don't control".
    you_control: bool = False
    #: "another target ...": not the source (rule 115.5 covers only itself).
    other: bool = False
    #: "target creature with flying", "non-Spirit": a keyword or subtype it must have / lack.
    has: str = ""
    lacks: str = ""
    #: "... an opponent controls" (rule 102.2).
    opponent_controls: bool = False
    #: "that was activated this turn" (rule 700.10).
    activated_this_turn: bool = False
    #: "target creature with a +1/+1 counter on it": a counter kind it must have (rule 122.1).
    with_counter: str = ""
    #: "target Bird, Cat, Dog, ... or Snake": subtypes of which it must have one (205.3).
    subtypes: tuple[str, ...] = ()
    #: "another target creature" of a spell or ability with several instances of the word
    #: "target": not an object or player chosen for an earlier one (rules 115.3, 601.2c --
    #: without it, the same object may be chosen once for each instance).
    other_target: bool = False
    #: "target creature ... that player controls": controlled by "that player" of the
    #: triggered ability's event (rule 603.2), e.g. the opponent dealt damage.
    that_player_controls: bool = False
    #: "target red instant or sorcery card": colours of which it must have one (rule 105.2).
    colors: tuple[str, ...] = ()


class Condition(Enum):
    """Conditions for "if" clauses: intervening ifs (603.4), "activate only if" (602.5b) and
    conditional effects."""

    CREATURE_DIED_THIS_TURN = "creature_died_this_turn"
    NO_CREATURE_DIED_THIS_TURN = "no_creature_died_this_turn"
    GAINED_3_LIFE_THIS_TURN = "gained_3_life_this_turn"
    #: "if you control another creature with power 4 or greater"
    CONTROL_ANOTHER_POWER_4 = "control_another_power_4"
    CONTROL_FLYING_CREATURE = "control_flying_creature"
    #: "if you control a creature with power 4 or greater" (it may be the source itself)
    CONTROL_POWER_4 = "control_power_4"
    #: "If you win [the clash]" (rule 701.30d).
    WON_CLASH = "won_clash"
    #: "if [this] is untapped" (an intervening "if", rule 603.4).
    SOURCE_UNTAPPED = "source_untapped"
    #: "if you descended this turn" (rule 700.11).
    DESCENDED_THIS_TURN = "descended_this_turn"
    #: "If you control a modified creature" (rule 700.9).
    CONTROL_MODIFIED_CREATURE = "control_modified_creature"
    #: "if you have a full party" (rule 700.8): four creatures in your party.
    FULL_PARTY = "full_party"
    #: "if you have no cards in hand".
    NO_CARDS_IN_HAND = "no_cards_in_hand"
    #: "If it's a creature or land card" -- the card this effect's resolution revealed.
    REVEALED_CREATURE_OR_LAND = "revealed_creature_or_land"
    #: "If you do" -- the previous optional ("you may") action of this resolution was taken
    #: (rule 608.2d), or its previous exile effect exiled something ("Exile it. If you do").
    YOU_DID = "you_did"
    #: "If it was a creature card" -- a target of this resolution was a creature card as the
    #: resolution began (its last known information once it has moved, rule 608.2h).
    TARGET_WAS_CREATURE_CARD = "target_was_creature_card"
    #: "If you win the flip" (rule 705.2): the controller won a coin flip of this resolution.
    WON_FLIP = "won_flip"
    #: "As long as it's your turn" (rule 102.1: the active player's turn is theirs).
    YOUR_TURN = "your_turn"
    #: "If this spell was cast from anywhere other than your hand" (rule 601.2a): the resolving
    #: spell was cast, from another zone (a copy wasn't cast at all, 707.10).
    NOT_CAST_FROM_HAND = "not_cast_from_hand"
    #: "if it entered from your graveyard or you cast it from your graveyard": the source
    #: permanent's card came to the battlefield from its owner's graveyard, directly or as a
    #: spell cast from there (rules 601.2a, 603.4).
    CAME_FROM_GRAVEYARD = "came_from_graveyard"


class Verb(Enum):
    """The closed effect vocabulary, named after the rules' own verbs."""

    DEAL_DAMAGE = "deal_damage"  # rule 120
    GAIN_LIFE = "gain_life"  # rule 119.3
    LOSE_LIFE = "lose_life"  # rule 119.3
    DRAW = "draw"  # rule 121
    DISCARD = "discard"  # rule 701.9 (2009: 701.7)
    DESTROY = "destroy"  # rule 701.8 (2009: 701.6)
    COUNTER = "counter"  # rule 701.6 (2009: 701.5)
    RETURN_TO_HAND = "return_to_hand"  # "return ... to its owner's hand" (rule 400.3)
    PUT_COUNTERS = "put_counters"  # rule 122
    #: "gets +N/+N [and gains K] until end of turn" (rules 611.2, 613.1f, 613.4c, 514.2)
    MODIFY_PT = "modify_pt"
    CREATE_TOKEN = "create_token"  # rule 111.1
    EXILE = "exile"  # rule 701.13 (2009: 701.11)
    TAP = "tap"  # rule 701.26a (2009: 701.15a)
    UNTAP = "untap"  # rule 701.26b
    #: "[Player] sacrifices a [quality] creature": that player chooses (rule 701.21a)
    SACRIFICE = "sacrifice"
    #: Equip: attach the source to the target (rules 701.3a, 702.6a)
    ATTACH = "attach"
    RETURN_TO_BATTLEFIELD = "return_to_battlefield"
    REMOVE_COUNTERS = "remove_counters"  # rule 122
    #: "If that creature would die this turn, exile it instead" (rule 614.1a)
    EXILE_IF_DIES = "exile_if_dies"
    #: "Regenerate [permanent]": a regeneration shield (rules 701.19a, 614.8)
    REGENERATE = "regenerate"
    #: Create a delayed triggered ability (rule 603.7), e.g. "whenever ... this turn".
    DELAYED_TRIGGER = "delayed_trigger"
    #: "You get an emblem with ..." (rule 114.1): an object in the command zone.
    CREATE_EMBLEM = "create_emblem"
    #: "Copy target instant or sorcery spell" (rules 707.10, 707.2)
    COPY_SPELL = "copy_spell"
    #: "Create a token that's a copy of target creature" (rules 707.2, 111.1)
    CREATE_TOKEN_COPY = "create_token_copy"
    #: An effect the vocabulary can't express, coded in :mod:`server.engine.coded`.
    CODED = "coded"
    #: "Prevent all combat damage that would be dealt this turn" (rules 615.1, 615.7)
    PREVENT_COMBAT_DAMAGE = "prevent_combat_damage"
    #: "Scry N" (rule 701.22a; 2009: 701.16a).
    SCRY = "scry"
    #: "Fateseal N": scry an opponent's library (rule 701.29a; 2009: 701.17a).
    FATESEAL = "fateseal"
    #: "Search [zones] for [cards]" then put them somewhere (rule 701.23; 2009: 701.14).
    SEARCH = "search"
    #: "Reveal the top card of your library" (rule 701.20a; 2009: 701.12a).
    REVEAL_TOP = "reveal_top"
    #: "[Player] reveals cards from the top of their library until they reveal a [find]
    #: card, puts that card into [destination], then shuffles the rest into their library"
    #: (rules 701.20a, 701.24a): the player puts the card there (under their control).
    REVEAL_UNTIL = "reveal_until"
    #: "Clash with an opponent" (rule 701.30; 2009: 701.18).
    CLASH = "clash"
    #: "Reveal the top N cards; an opponent separates them into two piles; put one into your
    #: hand and the other into your graveyard" (rule 700.3).
    PILES = "piles"
    #: "Put target creature on top of its owner's library" (rule 401.4).
    PUT_ON_TOP = "put_on_top"
    #: "Put target card from your graveyard on the bottom of your library": into its
    #: owner's library, beneath every other card (rules 400.3, 401.1).
    PUT_ON_BOTTOM = "put_on_bottom"
    #: "Flip a coin" (rule 705): the controller flips and calls it; whether they won is the
    #: condition ``won_flip`` (705.2).
    FLIP_COIN = "flip_coin"
    #: "[Player] mills N cards" (rule 701.17a).
    MILL = "mill"
    #: "[It] fights [target creature]": each deals damage equal to its power to the other
    #: (rules 701.14a-d). ``by`` names the creature that fights.
    FIGHT = "fight"
    #: "Exchange control of two target permanents" (rules 701.12a-b; 2009: 701.8a-b).
    EXCHANGE_CONTROL = "exchange_control"
    #: "Two target players exchange life totals" (rule 701.12c; 2009: 701.8c).
    EXCHANGE_LIFE = "exchange_life"
    #: "Exchange [zone] and [zone]" of one player (rules 701.12d-f; 2009: 701.8d-f).
    EXCHANGE_ZONES = "exchange_zones"
    # --- zone rules (server.engine.zone_rules) ---
    #: Put the new object a moved object became ("that card", "return [this]") into
    #: ``destination`` -- found only in a public zone (rules 400.7e, 400.7f, 400.7j).
    MOVE_FOUND = "move_found"
    #: "Put target creature into its owner's library just beneath the top N cards" -- N+1th
    #: from the top ("second from the top" is N=1; rule 401.7).
    PUT_INTO_LIBRARY_BENEATH = "put_into_library_beneath"
    #: "[Player] shuffles their [zones] into their library" (rule 400.12).
    SHUFFLE_INTO_LIBRARY = "shuffle_into_library"
    #: "You may reveal a [card_type] card you own from outside the game and put it into
    #: your hand" (rule 400.11b).
    WISH = "wish"
    #: "Exile target card", kept in a pile of cards exiled with the source (406.5, 406.6).
    EXILE_LINKED = "exile_linked"
    #: Put the cards exiled with the source (406.6: linked abilities) into ``destination``.
    MOVE_LINKED = "move_linked"
    #: "Exile all cards [player] owns in [zones]" -- exiling an exiled card makes a new
    #: object (rules 400.8, 406.7, 400.12).
    EXILE_ZONE = "exile_zone"
    #: "Put each card you own in the command zone into the command zone": each becomes a
    #: new object that has just entered it (rule 400.10).
    PUT_INTO_COMMAND = "put_into_command"
    #: "Turn each face-up card you own in the command zone face down": each becomes a new
    #: object with no characteristics (rules 400.9, 708.2).
    TURN_FACE_DOWN = "turn_face_down"
    #: "Prevent all damage target [spell or permanent] would deal this turn" (rule 615.1;
    #: for a permanent spell it goes on with the permanent, 400.7c).
    PREVENT_DAMAGE_FROM = "prevent_damage_from"
    #: "Exile the top N cards of your library face down" -- one pile of face-down cards
    #: (406.4), exiled with the source (406.6).
    EXILE_TOP_FACE_DOWN = "exile_top_face_down"
    #: "Choose a card in exile" and put it into ``destination`` -- a face-down card only
    #: by its pile unless you may look at it (rule 406.4).
    CHOOSE_EXILED = "choose_exiled"
    #: "Each instant and sorcery card in your graveyard gains flashback until end of turn.
    #: The flashback cost is equal to its mana cost." (rules 702.34a, 611.2c, 400.7g)
    GRANT_FLASHBACK = "grant_flashback"
    #: "Put each card [player] owns in the command zone into its owner's [destination]":
    #: a conspiracy, phenomenon, plane, scheme or vanguard card stays there (rule 400.4b).
    MOVE_COMMAND_CARDS = "move_command_cards"
    # --- stickers (rule 123) and ante (rule 407) ---
    #: "Put a [sticker] on target [permanent] you own" (rules 123.3, 123.3b).
    PUT_STICKER = "put_sticker"
    #: "Ante the top card of your library" (rules 407.3, 407.4).
    ANTE_TOP = "ante_top"
    # --- rules effects on permanents ---
    #: "[Those creatures] don't untap during their controller's next untap step" (rule
    #: 502.3): whoever controls it then.
    DOESNT_UNTAP_NEXT = "doesnt_untap_next"
    #: "[Creatures without flying] can't block this turn" (rule 611.2c): a rules change
    #: until end of turn, for the target(s) or for every permanent the ``filter`` describes
    #: at any time this turn (the set isn't locked in: no characteristic changes).
    RESTRICT_THIS_TURN = "restrict_this_turn"
    #: "Look at the top N cards of your library. Put [pick] of them into your hand and the
    #: rest into [rest]" (rules 701.20, 401.4): the controller chooses the cards one at a
    #: time; the rest go to the graveyard or, one at a time in the order chosen, to the
    #: bottom of the library.
    LOOK_AND_PICK = "look_and_pick"
    #: "Exile the top card of your library. You may play that card until you exile another
    #: card with [this]" -- or, with ``this_turn``, "... this turn" (rules 406.3, 601.3,
    #: 305.2): a permission to play it from exile, kept while it stays there.
    EXILE_TOP_PLAYABLE = "exile_top_playable"
    #: "End the turn" (rule 724.1): exile everything on the stack, check state-based
    #: actions, and skip to the cleanup step.
    END_TURN = "end_turn"
    #: "You may pay {1}{B}" (rules 118.1, 608.2d): the controller may pay the effect's
    #: ``cost`` as it is performed; "If you do" (condition ``you_did``) is whether they paid.
    PAY = "pay"
    #: "Target creature you control [deals damage ...]": the subject of the next instruction
    #: is a target (rule 115.1) -- chosen with the others, it does nothing by itself; the next
    #: effect names it with ``by`` (or ``who``) "that".
    TARGET = "target"
    #: "Exile the top N cards of your library" (rule 701.13a): face up; with ``may_play``,
    #: "Until end of turn, you may play cards exiled this way".
    EXILE_TOP = "exile_top"
    #: "[Permanents] phase out" (rule 702.26b): until they phase in during the untap step of
    #: the player who controlled them (702.26a); ``hold``: "Until the end of your next turn,
    #: they can't phase in".
    PHASE_OUT = "phase_out"
    #: "Take N extra turns after this one" (rule 500.7): the controller takes them.
    EXTRA_TURNS = "extra_turns"
    #: "Look at the top N cards of your library. You may reveal a [take] card from among
    #: them and put it into your hand. Put the rest on the bottom of your library in a random
    #: order" (rules 701.20a, 401.1): ``take`` describes the cards that may be taken.
    LOOK_AT_TOP = "look_at_top"
    #: "You may cast target [card]" (rules 608.2g, 601.2): the controller casts it while this
    #: resolves, whatever its timing, paying its costs; ``exile_instead``: "If that spell would
    #: be put into your graveyard this turn, exile it instead" (614.1a).
    CAST_CARD = "cast_card"
    #: "Until end of turn, you may cast spells from your hand without paying their mana
    #: costs" (rules 118.9, 601.2b: an alternative cost; X is 0, 107.3).
    FREE_CASTS_THIS_TURN = "free_casts_this_turn"
    #: "You may sacrifice a creature or discard a creature card": the chosen object (who
    #: "chosen", from the battlefield and your hand) is sacrificed if it is a permanent,
    #: discarded if it is in your hand (rules 701.21a, 701.9a, 608.2d).
    SACRIFICE_OR_DISCARD = "sacrifice_or_discard"
    #: "[The] color of your choice": the controller chooses a color as this effect is
    #: performed (rules 105.4, 608.2d); later effects of the resolution name it as
    #: ``"chosen_color"``.
    CHOOSE_COLOR = "choose_color"
    #: "Gain control of target creature [until end of turn]" (rules 613.1b, 611.2a; with
    #: ``this_turn`` it ends at the cleanup step, 514.2).
    GAIN_CONTROL = "gain_control"
    #: "Your choice of deathtouch or lifelink": the controller chooses one of the keyword
    #: abilities in ``gains`` as this effect is performed (rule 608.2d); a later
    #: ``modify_pt`` with ``gains_chosen`` grants it.
    CHOOSE_KEYWORD = "choose_keyword"
    #: "Choose a card name [other than a basic land card name]": the controller chooses the
    #: name of a card (rules 201.4, 201.4a, 608.2d) -- never one with the quality
    #: ``other_than``; a later ``search`` finds ``"chosen_name"``.
    CHOOSE_CARD_NAME = "choose_card_name"
    #: "Add [amount] mana of [mana]" (rule 106.3): ``mana`` is mana letters added
    #: ``amount`` times, or ``"chosen_color"`` -- one mana of the color chosen earlier in this
    #: resolution ("add two mana of any one color", 105.4).
    ADD_MANA = "add_mana"
    #: "[Player] loses the game" (rule 104.3e).
    LOSE_GAME = "lose_game"
    #: "Until end of turn, you may cast a [card_type] spell from among cards exiled with
    #: [this] without paying its mana cost" (rules 601.2, 118.9): one spell, this turn, with
    #: its normal timing.
    PERMIT_CAST_LINKED = "permit_cast_linked"
    #: "[It] becomes a P/T [subtypes] [types] with [keywords] in addition to its other types
    #: until end of turn" (rules 611.2, 613.1d, 613.1f, 613.4b): ``power``/``toughness``
    #: are the new base values; ``add_types``/``add_subtypes`` and ``gains`` are added.
    BECOME = "become"


#: Names of the coded effects (implemented in ``server.engine.coded``; a test checks both
#: lists agree). Card data refers to them as ``{"verb": "coded", "code": NAME}``.
CODED_EFFECTS = ("draw_per_named_card_in_graveyard",
                 # Planechase (rule 901): see server.engine.planar.
                 "planeswalk", "flame_counter_then_damage_you", "draw_per_land_you_control",
                 "sacrifice_nonblack_creature",
                 # Stick Together (rule 700.8d): see server.engine.counting.
                 "choose_party_sacrifice_rest",
                 # Madness (rule 702.35): its trigger, and "the discarded card" (400.7j,
                 # 400.7k); see server.engine.madness.
                 "madness", "discarded_card_to_library_bottom")

#: Stated qualities a searched-for or chosen card may need (rules 701.23b, 701.9b).
CARD_QUALITIES = ("", "basic_land", "creature", "land", "artifact", "noncreature_nonland",
                  "instant_or_sorcery", "permanent",
                  "creature_mv_6_or_more", "same_name_as_target",
                  # "a card named [name]": the effect's ``name`` (rule 201.2).
                  "named",
                  # the card name chosen earlier in this resolution (choose_card_name, 201.4)
                  "chosen_name")
class Count(Enum):
    """Game-state counts an effect's amount may be (rules 700.5, 700.8)."""

    #: Devotion to the effect's ``colors`` (rule 700.5).
    DEVOTION = "devotion"
    #: The number of creatures in your party (rule 700.8).
    PARTY = "party"
    #: "for each color among permanents you control": the colors (105.1) among the
    #: permanents the ``filter`` describes.
    COLORS_AMONG_PERMANENTS = "colors_among_permanents"
    #: The life lost to the previous effects of the same resolution ("you gain life equal to
    #: the life lost this way").
    LIFE_LOST = "life_lost"
    CREATURE_CARDS_IN_YOUR_GRAVEYARD = "creature_cards_in_your_graveyard"
    YOUR_CREATURES_DIED_THIS_TURN = "your_creatures_died_this_turn"
    #: "the number of [permanents matching the effect's ``filter``]", e.g. "Shrines you
    #: control", "creature you control with flying" (counted as the effect is performed,
    #: rule 608.2h).
    PERMANENTS = "permanents"
    #: The cards you've drawn this turn (rule 121.1): "as long as you've drawn two or more
    #: cards this turn".
    CARDS_DRAWN_THIS_TURN = "cards_drawn_this_turn"
    #: The most cards in any one opponent's graveyard: "as long as an opponent has eight or
    #: more cards in their graveyard" (rules 102.2, 404.1).
    CARDS_IN_AN_OPPONENTS_GRAVEYARD = "cards_in_an_opponents_graveyard"
    #: "the total power of [creatures you control]": the sum of the powers (after the
    #: layers, 613.4) of the permanents matching the ``filter``; a negative power subtracts.
    TOTAL_POWER = "total_power"
    #: The permanents put into your hand from the battlefield this turn (rules 400.3,
    #: 400.7): a token counts, as it is put there before it ceases to exist (704.5d).
    PERMANENTS_TO_YOUR_HAND_THIS_TURN = "permanents_to_your_hand_this_turn"
    #: "the greatest power among creature cards in your graveyard" (0 if there are none;
    #: a card's power there is its printed power or what its characteristic-defining
    #: ability says, rule 604.3).
    GREATEST_POWER_IN_YOUR_GRAVEYARD = "greatest_power_in_your_graveyard"
    #: "for each [kind] counter on [this]": the counters of the given kind on the source
    #: (rule 122.1).
    COUNTERS_ON_SOURCE = "counters_on_source"
    #: "if you've cast an [instant or sorcery] spell this turn": the spells you cast this
    #: turn (rule 601.2i) whose card the ``filter`` describes, countered or not.
    SPELLS_CAST_THIS_TURN = "spells_cast_this_turn"
    #: The creatures that died this turn, anyone's (rule 700.4), counted as the effect is
    #: performed (608.2h): "for each creature that died this turn".
    CREATURES_DIED_THIS_TURN = "creatures_died_this_turn"
    #: The nontoken creatures that died this turn, anyone's (rules 700.4, 111.1).
    NONTOKEN_CREATURES_DIED_THIS_TURN = "nontoken_creatures_died_this_turn"
    #: Your life total minus your starting life total (rules 103.4, 119.1): "if you have at
    #: least 7 life more than your starting life total" is this count at least 7.
    LIFE_ABOVE_STARTING = "life_above_starting"
    #: "the number of cards in their library": the cards in the library of the player the
    #: effect affects (rule 401.1) -- for a player verb, counted for each player it affects.
    CARDS_IN_LIBRARY = "cards_in_library"
    #: "their life": the life total of the player the effect affects (rule 119.1).
    LIFE = "life"
    #: "for each creature card in their graveyard": the creature cards in the graveyard of
    #: the player the effect affects (rule 404.1).
    CREATURE_CARDS_IN_THEIR_GRAVEYARD = "creature_cards_in_their_graveyard"
    #: "the total amount of noncombat damage dealt to your opponents this turn" (rules
    #: 120.3a, 510.2) -- also to opponents who have since left the game.
    NONCOMBAT_DAMAGE_TO_OPPONENTS_THIS_TURN = "noncombat_damage_to_opponents_this_turn"
    #: How many more permanents matching the ``filter`` the opponent with the most of them
    #: controls than you do (rule 102.2; negative if none has more): "if an opponent controls
    #: more creatures than you" is this count at least 1. The filter says "you" (each
    #: player's own permanents are counted from that player's point of view).
    OPPONENT_HAS_MORE = "opponent_has_more"
    #: "N [filter] permanents with the same name as one another": the most permanents
    #: matching the ``filter`` that share one name (rule 201.2).
    PERMANENTS_SHARING_A_NAME = "permanents_sharing_a_name"
    #: "that creature's mana value": the mana value of this resolution's object target as
    #: resolution began -- its last known information once it has moved (rule 608.2h); an
    #: {X} in its cost is 0 off the stack (202.3e).
    TARGET_MANA_VALUE = "target_mana_value"
    #: "that many", "for each creature tapped this way": the objects the previous effect of
    #: this resolution chose and acted on (608.2c) -- the permanents of a ``who`` "chosen",
    #: the cards discarded by an "up to N" discard.
    CHOSEN_THIS_WAY = "chosen_this_way"
    #: "for each card exiled from their hand this way": the cards the previous search of this
    #: resolution took from a hand (rule 608.2c).
    FOUND_FROM_HAND = "found_from_hand"
    #: "the number of instant and sorcery cards in your graveyard": your graveyard's cards
    #: the ``filter`` describes (rule 404.1); ``{}``: "the number of cards in your
    #: graveyard".
    CARDS_IN_YOUR_GRAVEYARD = "cards_in_your_graveyard"
    #: "the number of cards in your hand" (rule 402.1).
    CARDS_IN_YOUR_HAND = "cards_in_your_hand"
    #: The creatures attacking you and/or planeswalkers you control (rules 506.3, 508.1);
    #: one that has left the battlefield counts as it last existed (608.2h).
    CREATURES_ATTACKING_YOU = "creatures_attacking_you"


#: Counts of the player an effect affects ("their library", "their life"), not of its
#: controller: only for the verbs that affect players one at a time (draw, lose/gain life).
PLAYER_COUNTS = (Count.CARDS_IN_LIBRARY, Count.LIFE, Count.CREATURE_CARDS_IN_THEIR_GRAVEYARD)


class Rounding(Enum):
    """"Half [an amount], rounded up/down" (rule 107.1a: the effect says which way)."""

    UP = "up"
    DOWN = "down"


class Controller(Enum):
    """Who must control an object a filter matches (rule 102.2 "opponent")."""

    YOU = "you"
    OPPONENT = "opponent"
    ANY = "any"


@dataclass(frozen=True, slots=True)
class ObjectFilter:
    """A description of permanents ("creatures you control with flying", "Shrines you
    control", "other Rogues"): every stated quality must hold; a list of card types or of
    subtypes matches an object with any one of them (rules 205.2a, 205.3)."""

    card_types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    #: A keyword ability it must have (after the layers, rule 613.1f).
    has: str = ""
    controller: Controller = Controller.YOU
    #: "other": not the source of the ability itself.
    other: bool = False
    #: "with power N or greater" (after the layers, rule 613.4).
    min_power: int | None = None
    #: "with power N or less" (after the layers, rule 613.4).
    max_power: int | None = None
    #: "without flying": a keyword ability it must not have (after the layers, 613.1f).
    lacks: str = ""
    #: "attacking creatures": an attacking creature (rules 506.4, 508.1k) -- for a creature
    #: that has left the battlefield, as it last existed (608.2h).
    attacking: bool = False
    #: "with a +1/+1 counter on it": a counter kind it must have (rule 122.1) -- for a
    #: permanent that has left the battlefield, as it last existed ("if it had a +1/+1
    #: counter on it", 603.10a).
    with_counter: str = ""
    #: "non-Hydra": subtypes it must have none of (rule 205.3).
    not_subtypes: tuple[str, ...] = ()
    #: "that's one or more colors" (rule 105.2).
    colored: bool = False
    #: "with mana value N or less" (rule 202.3); ``max_mana_value_x``: "X or less", the X of
    #: the spell or ability (107.3).
    max_mana_value: int | None = None
    max_mana_value_x: bool = False
    #: "nontoken": a card (or a copy of one), not a token (rule 111.1).
    nontoken: bool = False
    #: "nonland": card types it must have none of (rule 205.2a).
    not_types: tuple[str, ...] = ()
    #: "a legendary card": supertypes of which it must have one (rule 205.4).
    supertypes: tuple[str, ...] = ()
    #: "untapped creatures": an untapped permanent (rule 110.5).
    untapped: bool = False
    #: A spell "cast from [zone]": the zone its card was in as it was cast (601.2a), or
    #: "not_hand" -- "from anywhere other than their hand".
    cast_from: str = ""
    #: "that's white, blue, black, or red": colours of which it must have one (rule 105.2).
    colors: tuple[str, ...] = ()


class DamageKind(Enum):
    """Which damage a "deals damage" trigger counts (rules 120.1, 510.2)."""

    ANY = "any"
    #: Combat damage (rule 510.2).
    COMBAT = "combat"
    #: Any other damage ("noncombat damage").
    NONCOMBAT = "noncombat"


class Recipient(Enum):
    """What a "deals damage to ..." trigger requires was dealt the damage (rule 120.3)."""

    ANY = "any"
    PLAYER = "player"
    #: "to an opponent" of the ability's controller (rule 102.2).
    OPPONENT = "opponent"
    CREATURE = "creature"
    PLANESWALKER = "planeswalker"
    #: "to a player or planeswalker" (rules 120.3a, 120.3c).
    PLAYER_OR_PLANESWALKER = "player_or_planeswalker"


@dataclass(frozen=True, slots=True)
class CountCondition:
    """A condition as a comparison of a game-state count ("if you control a Basri
    planeswalker": at least one permanent matching the filter; "if you control three or more
    artifacts"): the count is ``count`` (with ``filter`` for :attr:`Count.PERMANENTS`, from
    the controller's point of view), compared with ``at_least`` and/or ``at_most``.
    Checked like any "if" clause (rules 603.4, 602.5b, 608.2c)."""

    count: Count
    filter: ObjectFilter | None = None
    at_least: int | None = None
    at_most: int | None = None
    #: COUNTERS_ON_SOURCE: the counter kind counted ("four or more page counters on [this]").
    counter: str = ""


#: An "if" clause: a named condition or a count comparison.
AnyCondition = Condition | CountCondition
#: Zone names effects use for searching and exchanging.
EFFECT_ZONES = ("library", "hand", "graveyard", "exile", "battlefield", "library_top",
                "all_exile")
#: The kinds of counter (rule 122.1) card data may name: a misspelt kind is a load error, so a
#: card with a new kind adds it here.
COUNTER_KINDS = ("+1/+1", "-1/-1", "loyalty", "incarnation", "page", "soul")


class Who(Enum):
    """Who or what an effect affects when it names no target."""

    TARGET = "target"
    YOU = "you"
    EACH_OPPONENT = "each_opponent"
    EACH_PLAYER = "each_player"
    #: The source itself ("put a +1/+1 counter on [this]").
    SELF = "self"
    EACH_CREATURE_YOU_CONTROL = "each_creature_you_control"
    EACH_OTHER_CREATURE_YOU_CONTROL = "each_other_creature_you_control"
    EACH_CREATURE = "each_creature"
    EACH_CREATURE_OPPONENTS_CONTROL = "each_creature_opponents_control"
    EACH_PERMANENT_YOU_CONTROL = "each_permanent_you_control"
    EACH_PLANESWALKER = "each_planeswalker"
    #: The controller of the previous effect's target ("Its controller creates ..."),
    #: as it last existed (rule 608.2h).
    TARGET_CONTROLLER = "target_controller"
    #: The previous effect's target again ("that creature", "it").
    THAT = "that"
    #: The permanent the source Aura or Equipment is attached to ("enchanted creature").
    ATTACHED = "attached"
    #: The player who chose the modes of this spell ("that player", rule 700.2e).
    CHOOSER = "chooser"
    #: Each creature the player who chose the modes controls (rule 700.2e).
    EACH_CREATURE_CHOOSER_CONTROLS = "each_creature_chooser_controls"
    #: "all Equipment attached to that creature": the permanents attached to the previous
    #: effect's target (rule 701.3) that the effect's ``filter`` describes.
    ATTACHED_TO_THAT = "attached_to_that"
    #: The cards the previous search of this resolution found and put onto the battlefield
    #: ("then ... untap that land"), if they are still there (rule 400.7).
    FOUND = "found"
    #: The permanent a triggered ability's event is about ("that creature" of "whenever
    #: [this] becomes blocked by a creature", "that planeswalker" of "deals damage to a
    #: planeswalker"), if it is still on the battlefield (rule 400.7: a permanent that left is
    #: a new object the ability can't find).
    EVENT_OBJECT = "event_object"
    #: "Each opponent who can't": each opponent the previous discard of this resolution
    #: could not make discard -- one with no card in hand (rule 701.9a).
    EACH_OPPONENT_WHO_COULDNT = "each_opponent_who_couldnt"
    #: "a [filter] permanent you control" (no target): the controller chooses one of the
    #: permanents the effect's ``filter`` describes as the effect is performed (608.2c).
    CHOSEN_ONE = "chosen_one"
    #: "Untap up to four lands", "tap any number of untapped creatures you control", "return
    #: an instant or sorcery card from your graveyard": up to ``amount`` objects the
    #: ``filter`` describes (permanents, or cards in your ``zones``), chosen by the
    #: controller as the effect is performed (rules 608.2c-d) -- not targeted (115.10).
    CHOSEN = "chosen"
    #: "Each creature target opponent controls": the creatures of the effect's ``target``
    #: player (rule 115.1).
    EACH_CREATURE_TARGET_CONTROLS = "each_creature_target_controls"
    #: "Each permanent [filter]": every permanent the effect's ``filter`` describes (from the
    #: controller's point of view), as the effect is performed.
    EACH_PERMANENT = "each_permanent"


class StickerKind(Enum):
    """The kinds of sticker (rule 123.1) the engine supports. Name stickers (123.6: the
    controller chooses where the word goes, a text-changing effect) are not supported."""

    #: Rule 123.7: the object gains the printed ability (layer 6, 613.1f).
    ABILITY = "ability"
    #: Rule 123.8: sets the power and toughness of a creature (layer 7b, 613.4b).
    POWER_TOUGHNESS = "power_toughness"
    #: Rule 123.9: no effect on game play; a marker only.
    ART = "art"


@dataclass(frozen=True, slots=True)
class StickerDef:
    """A sticker as printed (rule 123.1): not an object, not a counter, not a token.
    ``text`` is what it shows: "4/4", "Flying", or an art sticker's picture."""

    kind: StickerKind
    text: str
    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Effect:
    """One instruction of a spell or ability, performed in text order (rule 608.2c).

    ``amount`` None means X (rule 107.3). ``target`` is set exactly when ``who`` is TARGET.
    """

    verb: Verb
    who: Who = Who.YOU
    target: TargetReq | None = None
    amount: int | None = 1
    #: PUT_COUNTERS: the kind of counter, e.g. ``"+1/+1"`` (rule 122.1).
    counter: str = ""
    #: MODIFY_PT: the change to power and toughness until end of turn.
    power: int = 0
    toughness: int = 0
    #: MODIFY_PT: keyword abilities gained / lost until end of turn (rule 613.1f).
    gains: tuple[str, ...] = ()
    loses: tuple[str, ...] = ()
    #: MODIFY_PT: "double the power" (the bonus is its power as the effect begins).
    double_power: bool = False
    #: MODIFY_PT: "switch its power and toughness" (layer 7d, rule 613.4d).
    switch: bool = False
    #: MODIFY_PT: "[they] have base power and toughness P/T" (layer 7b, rule 613.4b): sets
    #: them to ``power``/``toughness`` (times the amount: "X/X") instead of adding.
    set_base: bool = False
    #: EXILE_LINKED: "until [this] leaves the battlefield" (rule 610.3): the card returns to
    #: its previous zone as the source leaves; nothing is exiled if it already has (610.3b).
    until_leaves: bool = False
    #: BECOME: card types and subtypes it gets in addition to its others (layer 4).
    add_types: tuple[str, ...] = ()
    add_subtypes: tuple[str, ...] = ()
    #: CREATE_TOKEN: the token's definition (rule 111.3).
    token: CardDef | None = None
    #: SACRIFICE: the quality the sacrificed permanent must have, e.g. "Flying".
    quality: str = ""
    #: Performed only if this holds as the effect would be performed.
    condition: AnyCondition | None = None
    #: "damage equal to its power": the amount is the source's power (last known, 608.2h).
    amount_is_power: bool = False
    #: DESTROY: "It can't be regenerated" (rule 701.19c).
    no_regeneration: bool = False
    #: "that many": the number the trigger event counted (e.g. creatures that attacked).
    amount_is_event: bool = False
    #: "equal to that creature's power": the power of the trigger event's object (the
    #: creature that entered, ...), as it last existed if it has left (rule 608.2h).
    amount_is_event_power: bool = False
    #: CREATE_TOKEN: "tapped and attacking" (rule 508.4).
    tapped_attacking: bool = False
    #: DELAYED_TRIGGER: the ability it creates; ``this_turn``: its stated duration (603.7b).
    delayed: TriggeredAbility | None = None
    this_turn: bool = False
    #: CREATE_EMBLEM: the emblem (rule 114).
    emblem: CardDef | None = None
    #: CODED: the name of the coded effect.
    code: str = ""
    #: SACRIFICE: "another" -- not the source itself.
    other: bool = False
    #: COPY_SPELL: "You may choose new targets for the copy" (rule 707.10c).
    new_targets: bool = False
    #: A reflexive triggered ability (rule 603.12): "When you do, ..." after the optional
    #: action of this effect is taken.
    reflexive: TriggeredAbility | None = None
    #: "Choose one --" on a triggered ability: handled by modes; "you may": optional.
    optional: bool = False
    #: SEARCH: the zones searched, in text order ("graveyard", "hand", "library").
    zones: tuple[str, ...] = ()
    #: SEARCH: the stated quality of the cards to find (see ``CARD_QUALITIES``; "" is
    #: "a card": a quantity, rule 701.23d); DISCARD: what the chosen card must be.
    find: str = ""
    #: SEARCH: where found cards go ("hand", "battlefield", "exile", "library_top");
    #: EXCHANGE_ZONES: the two zones exchanged ("hand", "graveyard", "exile").
    destination: str = ""
    exchange_with: str = ""
    #: SEARCH: "put one onto [destination] and the other into [rest_to]" -- the searcher
    #: chooses which found card goes to ``destination`` (608.2d); the rest go here.
    rest_to: str = ""
    #: CHOOSE_CARD_NAME: "other than a [quality] card name" (a ``CARD_QUALITIES`` member).
    other_than: str = ""
    #: SEARCH: found cards enter tapped / are revealed (701.23e) / the library is shuffled.
    tapped: bool = False
    reveal: bool = False
    shuffle: bool = False
    #: SEARCH: "all cards with ..." -- every match (a hidden zone may still hide some, 701.23b).
    find_all: bool = False
    #: DISCARD: "" -- the player chooses (701.9b); "you" -- the effect's controller chooses
    #: from the revealed hand; "random" -- at random.
    chooser: str = ""
    #: The amount is a count of the game state, e.g. devotion to ``colors`` (700.5), the
    #: party (700.8) or the permanents ``filter`` describes; ``amount`` multiplies it.
    count: Count | None = None
    filter: ObjectFilter | None = None
    #: DEAL_DAMAGE, FIGHT: the creature that deals the damage / fights when it isn't the
    #: effect's source: ``THAT`` -- the previous effect's target ("Then that creature deals
    #: damage equal to its power to ...", "Then it fights ..."); ``SELF`` -- the source as a
    #: permanent. None: the source (a spell deals its own damage, rule 120.1).
    by: Who | None = None
    colors: tuple[str, ...] = ()
    #: WISH: the card type of the card brought in from outside the game ("Sorcery").
    card_type: str = ""
    #: EXILE_TOP_FACE_DOWN: "You may look at it for as long as it remains exiled" (406.3).
    may_look: bool = False
    #: PUT_STICKER: the sticker put on (rule 123.3; sticker sheets, 123.2, aren't modelled).
    sticker: StickerDef | None = None
    #: DISCARD: "discard your hand" -- every card in it (rule 701.9a).
    whole_hand: bool = False
    #: SEARCH with ``find`` "named": the English names searched for (rules 201.2, 701.23) --
    #: "a card named A and/or a card named B": at most one card of each name.
    names: tuple[str, ...] = ()
    #: COUNTER: "... unless its controller pays {N}" (rule 118.12a): the target's controller
    #: may pay this cost as the effect is performed; if they don't, it is countered.
    unless_pays: ManaCost | None = None
    #: PUT_COUNTERS: "double the number of [kind] counters on it" -- put as many as it
    #: already has (rule 701.10e); ``amount`` is ignored.
    double: bool = False
    #: RESTRICT_THIS_TURN: the rules changes, e.g. "cant_block" (see StaticAbility).
    restrictions: tuple[str, ...] = ()
    #: PREVENT_COMBAT_DAMAGE: "... that would be dealt this turn to [Dogs you control]": only
    #: to permanents the filter describes (from the controller's point of view) as the damage
    #: would be dealt; None: all combat damage.
    prevent_to: ObjectFilter | None = None
    #: PAY: the mana cost the controller may pay.
    cost: ManaCost | None = None
    #: "half [the amount], rounded up/down" (rule 107.1a); None: the whole amount.
    half: Rounding | None = None
    #: REVEAL_TOP with ``find`` and ``destination``: "If it's a [find] card, put it into
    #: [destination]. Otherwise, put it [otherwise]" -- "library_bottom" or "" (it stays).
    otherwise: str = ""
    #: EXILE_TOP, SEARCH (to exile): "Until end of turn, you may play cards exiled this way" /
    #: "You may cast them this turn" -- a permission to play them from exile this turn,
    #: following the normal timing and costs (rules 305.1, 601.2, 400.7h).
    may_play: bool = False
    #: PHASE_OUT: "Until the end of your next turn, they can't phase in" (rule 702.26a).
    hold: bool = False
    #: LOOK_AT_TOP: "a creature card or Garruk planeswalker card" -- a card matching one of
    #: these descriptions (its characteristics in the library, rule 109.3).
    take: tuple[ObjectFilter, ...] = ()
    #: CAST_CARD: "If that spell would be put into your graveyard this turn, exile it instead".
    exile_instead: bool = False
    #: MODIFY_PT: no duration stated ("It gains haste."): until the end of the game
    #: (rule 611.2a), not until end of turn.
    lasting: bool = False
    #: LOOK_AND_PICK: how many of the looked-at cards go into ``destination`` ("one of
    #: them"); where the rest go ("graveyard", "library_bottom"); and a condition under which
    #: every looked-at card goes into ``destination`` instead.
    pick: int = 1
    rest: str = ""
    all_if: AnyCondition | None = None
    #: MODIFY_PT: "gains protection from [quality] until end of turn" (rule 702.16a): a
    #: quality protection can name, or ``"chosen_color"`` -- the color chosen earlier in this
    #: resolution ("protection from the color of your choice").
    protection: str = ""
    #: MODIFY_PT: it also gains the keyword ability chosen earlier in this resolution.
    gains_chosen: bool = False
    #: ADD_MANA: the mana added (see the verb).
    mana: str = ""
    #: DISCARD: "discard up to N cards" -- the player may stop after any number, even none
    #: (rules 701.9b, 608.2d); "that many" is then ``Count.CHOSEN_THIS_WAY``.
    up_to: bool = False
    #: CREATE_TOKEN: "an X/X token, where X is [the count]" -- the token's power and
    #: toughness are the effect's counted amount, locked in as it is created (rule 107.3a);
    #: it creates one token.
    token_x: bool = False

@dataclass(frozen=True, slots=True)
class CostReduction:
    """"This spell costs {N} less to cast [if condition]", "costs {X} less to cast, where X is
    [a count]" (rules 601.2f, 118.7a): generic mana taken off the total cost after cost
    increases, never below zero generic mana; the count ``count`` (with ``filter``) from the
    caster's point of view, or the fixed ``generic``; only while ``condition`` holds."""

    generic: int = 0
    count: Count | None = None
    filter: ObjectFilter | None = None
    condition: AnyCondition | None = None
    #: "costs {2}{U} less": a reduction by an amount of mana with coloured symbols (rules
    #: 118.7b-c): each coloured symbol takes one mana of its colour off, or one generic mana
    #: if the cost needs no more of that colour.
    mana: ManaCost | None = None


@dataclass(frozen=True, slots=True)
class SpellCostChange:
    """A static ability of a permanent changing what spells cost (rules 601.2f, 118.7a):
    "Creature spells with flying you cast cost {1} less to cast", "Noncreature spells cost
    {1} more": ``generic`` more (positive) or less (negative) for each spell the ``filter``
    describes, its ``controller`` relative to the permanent's controller (who casts it)."""

    generic: int
    filter: ObjectFilter


@dataclass(frozen=True, slots=True)
class ExtraTriggers:
    """"If a triggered ability of [filter] triggers, it triggers an additional time [if
    condition]" (rule 603.2d): the permanents ``filter`` describes from the point of view of
    this permanent's controller (``other``: not this one), the condition checked as the
    ability triggers."""

    filter: ObjectFilter
    condition: Condition | CountCondition | None = None


@dataclass(frozen=True, slots=True)
class TargetedCost:
    """"Spells your opponents cast that target [this] cost {N} more to cast" / "cost an
    additional N life to cast" (rules 601.2f, 119.4): added to the total cost of each spell an
    opponent of the permanent's controller casts with it among the spell's targets."""

    generic: int = 0
    life: int = 0


class ReplacementKind(Enum):
    """Replacement effects of static abilities (rule 614), consulted by the event they
    modify."""

    #: "If a [filter] source would deal damage to a permanent or player, it deals [factor]
    #: times that damage instead" (rules 614.1a, 120.3).
    DAMAGE_MULTIPLIED = "damage_multiplied"
    #: "If one or more [counter] counters would be put on a [filter] permanent, that many
    #: plus [extra] are put on it instead" (rules 614.1a, 122.6; also as it enters with
    #: counters, 614.1c).
    EXTRA_COUNTERS = "extra_counters"
    #: "If a [filter] permanent would enter the battlefield and it wasn't cast, exile it
    #: instead" (rules 614.1a, 614.12): from anywhere but the stack (a spell on the stack that
    #: isn't a copy was cast, 601.2i, 707.10).
    EXILED_UNLESS_CAST = "exiled_unless_cast"
    #: "If you would draw a card except the first one you draw in each of your draw steps,
    #: draw [1 + extra] cards instead" (rules 614.1a, 121.2, 504.1): the draws of the
    #: permanent's controller; the replacing draws aren't replaced by it again (614.5).
    EXTRA_DRAWS = "extra_draws"
    #: "If a source would deal damage to you, prevent that damage and put a [counter] counter
    #: on [this]" (rules 615.1, 614.1a): damage to the permanent's controller; one counter per
    #: damage event prevented.
    PREVENT_DAMAGE_TO_YOU = "prevent_damage_to_you"


@dataclass(frozen=True, slots=True)
class Replacement:
    """A replacement effect of a permanent's static ability (rule 614.1): it applies while the
    permanent is on the battlefield, to events the ``filter`` (from its controller's point of
    view) describes."""

    text: str
    kind: ReplacementKind
    filter: ObjectFilter
    #: DAMAGE_MULTIPLIED: the factor ("triple" is 3).
    factor: int = 1
    #: EXTRA_COUNTERS: the counter kind and how many more.
    counter: str = ""
    extra: int = 0


class CostKind(Enum):
    """The kinds of additional cost (rule 601.2f) beyond mana, {T} and sacrificing the source."""

    #: "Sacrifice a creature" (rule 701.21a): a creature its controller controls.
    SACRIFICE_CREATURE = "sacrifice_creature"
    #: "Discard a card" (rule 701.9a): a card from its controller's hand.
    DISCARD_CARD = "discard_card"
    #: "Tap [count] untapped [filter] you control" (rules 602.2b, 118.3, 701.26a): any such
    #: permanents, the source too, summoning sick or not ({T} isn't in the cost, 302.6).
    TAP_PERMANENTS = "tap_permanents"


@dataclass(frozen=True, slots=True)
class AdditionalCost:
    """"Sacrifice a creature [with K]", "Sacrifice another creature", "Discard a card"
    (rules 601.2f, 602.2b): paid with the rest of the cost (601.2h)."""

    kind: CostKind
    #: The keyword ability the sacrificed creature must have ("a creature with defender").
    has: str = ""
    #: "another creature": not the source itself.
    other: bool = False
    #: DISCARD_CARD: "Discard a land card or Shrine card" -- the card must match one of these
    #: descriptions (its characteristics in your hand, rule 109.3); empty: any card.
    cards: tuple[ObjectFilter, ...] = ()
    #: TAP_PERMANENTS: how many permanents are tapped, and what they must be ("two untapped
    #: Spirits you control").
    count: int = 1
    filter: ObjectFilter | None = None


@dataclass(frozen=True, slots=True)
class GraveyardCast:
    """"You may cast [this] from your graveyard by paying N life and [an additional cost] in
    addition to paying its other costs" (rules 601.2a-b, 601.2f, 113.6f): the card's own
    permission, with the costs added when it is used."""

    life: int = 0
    additional_cost: AdditionalCost | None = None


@dataclass(frozen=True, slots=True)
class ActivatedAbility:
    """``[Cost]: [Effect.]`` (rule 602). Costs: mana, {T}, sacrificing the source."""

    text: str
    cost: ManaCost
    tap: bool
    sacrifice_self: bool
    #: "Activate only as a sorcery" (rule 602.5d).
    sorcery_speed: bool
    effects: tuple[Effect, ...]
    #: A loyalty ability's cost, e.g. +1 or -2 (rule 606.4); None for other abilities.
    loyalty: int | None = None
    #: "Activate only if ..." (rule 602.5b).
    condition: AnyCondition | None = None
    #: "Sacrifice a creature" / "Discard a card" as part of the cost (rules 602.2b, 601.2f).
    additional_cost: AdditionalCost | None = None
    #: "Pay N life" as part of the cost: payable only with a life total of at least N
    #: (rules 119.4, 602.2b).
    life: int = 0
    #: "Discard your hand" as part of the cost: every card in it, none if it is empty
    #: (rules 701.9a, 602.2b).
    discard_hand: bool = False
    #: "Put a [kind] counter on [this]" as part of the cost (rules 602.2b, 122.1).
    self_counter: str = ""
    #: "Discard [this]" as part of the cost (rules 602.2b, 701.9a): the ability functions
    #: only while the card is in its owner's hand (113.6m), and only its owner activates it.
    discard_self: bool = False
    #: "You may activate loyalty abilities of [this] on any player's turn any time you could
    #: cast an instant" (an exception to rule 606.3, from the card).
    any_time: bool = False
    #: "[-X]": a loyalty cost of minus X, X chosen as it is activated, at most its loyalty
    #: (rules 606.4, 107.3, 601.2b); ``loyalty`` is then 0.
    loyalty_x: bool = False
    #: "This ability costs {1} less to activate for each Shrine you control": generic mana
    #: taken off its mana cost, never its coloured symbols (rules 602.2b, 601.2f, 118.7a).
    cost_reduction: CostReduction | None = None

    @property
    def targets(self) -> tuple[TargetReq, ...]:
        """The target requirements of the ability, in text order."""
        return tuple(e.target for e in self.effects if e.target is not None)


class TriggerEvent(Enum):
    """The general kinds of trigger event (rule 603.2): each names one kind of game event,
    qualified by the triggered ability's parameters -- its ``subject`` (the source itself,
    the permanent it is attached to, or any object its ``filter`` describes), the zones of a
    zone change, the step, whose turn or action it is (``whose``), a count."""

    #: "When [this] enters / dies / leaves the battlefield", "whenever [a filter object] is
    #: put into [zone] from [zone]", "when enchanted creature dies" (rules 603.2, 603.6a,
    #: 603.6c, 700.4): an object moves from ``from_zone`` to ``to_zone`` ("" -- any zone; a
    #: token created enters from none, 111.1). One entering the battlefield is matched as it
    #: is there (603.6d); one leaving it as it last existed, and the permanents that left
    #: with it look back in time (603.10a).
    ZONE_CHANGE = "zone_change"
    #: "At the beginning of [whose] [step]" (rules 503.1a, 504.2, 505.1a, 507.2, 513.1a,
    #: 603.2): ``step`` begins in the turn of a player ``whose`` describes; "that player" is
    #: the active player.
    STEP = "step"
    #: "Whenever [this] attacks" (508.3a); with ``filter`` and ``count``: "[this] and at
    #: least N other [filter] creatures attack". Subject FILTER: "whenever a [filter]
    #: creature attacks" -- once per such attacker ("that creature"); with ``count``:
    #: "whenever [you/an opponent] attack[s] with N or more / one or more [filter]
    #: creatures" -- once per declaration of attackers (508.1), "that many" the number.
    ATTACKS = "attacks"
    #: "Whenever [this] blocks [a filter creature]" (rules 509.3a, 509.3f): ``filter``
    #: describes the creature blocked.
    BLOCKS = "blocks"
    #: "Whenever [this] becomes blocked by a creature" (rule 509.3d): once for each creature
    #: blocking it; "that creature" is the blocker, "that player" its controller.
    BECOMES_BLOCKED = "becomes_blocked"
    #: "Whenever [this / a filter source] deals [combat|noncombat] damage to [recipient]"
    #: (rules 120.3, 510.2): once per damage event; "that player" is the player dealt
    #: damage, "that much" the damage. With ``count`` 1: "whenever one or more [filter]
    #: creatures deal combat damage to a player" -- once per player dealt combat damage in a
    #: combat damage step (510.2).
    DEALS_DAMAGE = "deals_damage"
    #: "Whenever [this] is dealt damage" (rule 120.3): once per damage event; "that much" is
    #: the damage dealt.
    DEALT_DAMAGE = "dealt_damage"
    #: "Whenever [a player] casts a [filter] spell" (rule 601.2i): ``filter`` describes the
    #: spell, its ``controller`` who cast it; with ``count``: "their Nth [filter] spell each
    #: turn"; prowess (702.108a).
    CAST = "cast"
    #: "Whenever [whose] draw[s] a card" (rule 121); with ``count``: "your Nth card each turn".
    DRAW = "draw"
    #: "Whenever [whose] gain[s] life" (rule 119.9): once per life-gain event; "that much" is
    #: the life gained.
    GAIN_LIFE = "gain_life"
    #: "Whenever one or more [counter] counters are put on a [filter] permanent" (rules
    #: 122.1, 603.2): once per event, including a permanent entering with them (614.1c).
    COUNTERS_PUT = "counters_put"
    #: "Whenever [this] becomes the target of a [filter] spell or ability" (rules 115.1,
    #: 603.2e): once per spell or ability as it is put on the stack (601.2c, 603.3d).
    BECOMES_TARGET = "becomes_target"
    #: "Whenever [a player] sacrifice[s] a [filter] permanent" (rules 701.21a, 603.2): the
    #: permanent as it last existed (its ``controller`` is who sacrificed it), the source
    #: itself too (603.10a).
    SACRIFICE = "sacrifice"
    #: "Whenever [this] becomes untapped" (rules 701.26b, 502.3).
    BECOMES_UNTAPPED = "becomes_untapped"
    #: A state trigger (rule 603.8): it triggers whenever the ability's ``condition`` holds,
    #: and again only once that instance has left the stack (or never got there).
    STATE = "state"
    #: "Whenever you activate a loyalty ability of a [filter] planeswalker" (rules 606.4,
    #: 602.2i): it resolves before that ability.
    LOYALTY_ACTIVATED = "loyalty_activated"
    #: "Whenever [whose] commit[s] a crime" (rule 700.13).
    CRIME = "crime"
    #: "Whenever [whose] expend[s] N" (rule 700.14); N is the ability's ``count``.
    EXPEND = "expend"
    #: "Whenever chaos ensues" -- a plane's chaos ability (rules 311.7, 901.9b).
    CHAOS_ENSUES = "chaos_ensues"
    #: "When you planeswalk to [this plane]" (rules 701.31d, 901.11).
    PLANESWALK_TO = "planeswalk_to"
    #: "Whenever you roll the Planeswalker symbol on the planar die" (rule 901.8).
    ROLL_PLANESWALKER = "roll_planeswalker"
    #: Madness (rule 702.35a): "When this card is exiled this way" -- it triggers from the
    #: madness replacement itself (server.engine.madness), not from card data.
    EXILED_WITH_MADNESS = "exiled_with_madness"


class TriggerSubject(Enum):
    """Which object a trigger event about an object must be about (rule 603.2)."""

    #: The source of the ability itself ("when [this] enters", "whenever [this] attacks").
    THIS = "this"
    #: The permanent the source is attached to: "enchanted creature", "equipped creature"
    #: (rules 303.4, 301.5) -- the Aura or Equipment finds it as it last existed (603.10a).
    ATTACHED = "attached"
    #: Any object the ability's ``filter`` describes, from its controller's point of view
    #: (the source itself included unless the filter says "other").
    FILTER = "filter"


class TriggerStep(Enum):
    """The steps and phases whose beginning a STEP trigger names (rules 500.1, 603.2)."""

    UPKEEP = "upkeep"  # rule 503.1a
    DRAW = "draw"  # rule 504.2: after the turn's draw
    PRECOMBAT_MAIN = "precombat_main"  # rule 505.1a
    BEGINNING_OF_COMBAT = "beginning_of_combat"  # rule 507.2
    END = "end"  # rule 513.1a


@dataclass(frozen=True, slots=True)
class TriggeredAbility:
    """``When/Whenever/At [event], [effect]`` (rule 603.1)."""

    text: str
    event: TriggerEvent
    effects: tuple[Effect, ...]
    #: An intervening "if" clause (rule 603.4): checked as it triggers and as it resolves.
    condition: AnyCondition | None = None
    #: "Choose one --" triggers (rule 700.2b): the modes; ``effects`` is then empty.
    modes: tuple[tuple[Effect, ...], ...] = ()
    #: Which object the event must be about (ZONE_CHANGE, ATTACKS, DEALS_DAMAGE; the other
    #: kinds about an object have a fixed one: see :class:`TriggerEvent`).
    subject: TriggerSubject = TriggerSubject.THIS
    #: Subject FILTER: the object the event is about; ATTACKS with THIS: the other attackers
    #: counted; BLOCKS: the creature blocked; BECOMES_TARGET: the spell or ability;
    #: LOYALTY_ACTIVATED: the planeswalker.
    filter: ObjectFilter | None = None
    #: EXPEND: the N of "whenever you expend N" (rule 700.14); DRAW: "your Nth card each
    #: turn" (121.1); CAST: "their Nth [filter] spell each turn" (601.2i); ATTACKS: "with N
    #: or more", "[this] and at least N other"; DEALS_DAMAGE: 1 -- "one or more".
    count: int = 0
    #: "This ability triggers only once each turn."
    once_each_turn: bool = False
    #: STEP: which step or phase begins.
    step: TriggerStep | None = None
    #: STEP, DRAW, GAIN_LIFE, CRIME, EXPEND: whose turn it is / who draws, gains life,
    #: commits the crime or expends -- you, an opponent or any player (rule 102.2).
    whose: Controller = Controller.YOU
    #: DEALS_DAMAGE: which damage, and to what (rules 120.3, 510.2).
    damage: DamageKind = DamageKind.ANY
    recipient: Recipient = Recipient.ANY
    #: ZONE_CHANGE: the zones moved from and to ("" -- any zone).
    from_zone: str = ""
    to_zone: str = ""
    #: COUNTERS_PUT: the counter kind (rule 122.1).
    counter: str = ""
    #: The zone the ability triggers from (rules 113.6k, 113.6m): "graveyard" for "return
    #: [this] from your graveyard"; "" -- the battlefield (and the command zone, 113.6p).
    zone: str = ""

    @property
    def targets(self) -> tuple[TargetReq, ...]:
        """The target requirements of the ability, in text order."""
        return tuple(e.target for e in self.effects if e.target is not None)


class Affects(Enum):
    """What a static ability's continuous effect applies to (rules 604.2, 611.3)."""

    SELF = "self"
    #: The permanent this Aura enchants / this Equipment equips (rules 303.4, 301.5).
    ATTACHED = "attached"
    CREATURES_YOU_CONTROL = "creatures_you_control"
    OTHER_CREATURES_YOU_CONTROL = "other_creatures_you_control"
    OTHER_CREATURES = "other_creatures"
    ATTACKING_CREATURES_YOU_CONTROL = "attacking_creatures_you_control"
    CREATURES_OPPONENTS_CONTROL = "creatures_opponents_control"
    #: "All creatures" / "Creatures ..." -- every creature on the battlefield (a plane's
    #: static ability, rule 311.4).
    CREATURES = "creatures"


@dataclass(frozen=True, slots=True)
class StaticAbility:
    """A static ability's continuous effect (rules 604, 611.3), applied in layers (613)."""

    text: str
    affects: Affects
    #: Layer 2: "You control enchanted creature".
    control: bool = False
    #: Layer 4: subtypes added ("is a Knight in addition to its other types").
    subtypes: tuple[str, ...] = ()
    #: Layer 6: keyword abilities granted.
    keywords: tuple[str, ...] = ()
    #: Layer 7c: power/toughness change -- with ``count``, for each one counted ("+1/+1 for
    #: each soul counter on [this]", "+X/+0, where X is ...", rules 613.4c, 107.3), counted
    #: from the controller's point of view each time the layers are applied (611.3a).
    power: int = 0
    toughness: int = 0
    count: Count | None = None
    #: COUNTERS_ON_SOURCE: the counter kind counted.
    counter: str = ""
    #: Only creatures with this subtype ("Other Dogs you control") or counter kind.
    subtype: str = ""
    with_counter: str = ""
    #: "As long as [this] has N or more [with_counter] counters on it".
    min_counters: int = 1
    #: Rules changes for the affected permanents: "cant_attack", "cant_block",
    #: "doesnt_untap" (502.3), "attacks_each_combat" (508.1d), "cant_be_blocked" (509.1b),
    #: "attacks_despite_defender" ("can attack as though it didn't have defender", 702.3b),
    #: "must_be_blocked" ("must be blocked if able", a requirement on blocks, 509.1c).
    restrictions: tuple[str, ...] = ()
    #: "As long as [condition], ..." / "... unless [condition]" (negated as a count
    #: comparison): a conditional static ability. Its effect applies only while the condition
    #: holds, checked continuously from the controller's point of view (rules 604.1, 611.3a,
    #: 611.3b).
    condition: AnyCondition | None = None
    #: Layer 6: "have protection from Dogs" (rule 702.16): colours, card types or subtypes.
    protection: tuple[str, ...] = ()
    #: Layer 6: triggered abilities granted ("enchanted creature has 'When this creature dies,
    #: draw a card'", 613.1f); "this creature" and "you" are the affected permanent and its
    #: controller.
    triggers: tuple[TriggeredAbility, ...] = ()
    #: A rules change for the controller: "You may cast [filter] spells from the top of your
    #: library" (Conspicuous Snoop): the top card of their library, if the filter describes
    #: it and it isn't a land, may be cast with its normal timing and costs (601.3, 117.1a).
    cast_from_top: ObjectFilter | None = None
    #: Layer 6: "[affected] has all activated abilities of the top card of your library as
    #: long as that card is [filter]" (613.1f): while the top card is revealed (401.5) and the
    #: filter describes it, its activated abilities are the affected permanent's too.
    abilities_of_top: ObjectFilter | None = None


#: Keyword abilities the engine implements (rule 702).
SUPPORTED_KEYWORDS = (
    "Flash", "Deathtouch", "Flying", "Reach", "First strike", "Double strike", "Lifelink",
    "Trample", "Vigilance", "Haste", "Menace", "Defender", "Indestructible", "Hexproof",
    "Prowess", "Protection", "Enchant", "Equip",
    #: Spree (702.172): modes with additional costs, given by the card's "choose" data.
    "Spree",
    #: Madness (702.35): the madness cost is the card's ``madness_cost`` (behaviour data).
    "Madness",
)


@dataclass(frozen=True, slots=True)
class CardDef:
    """One card's printed characteristics and its behaviour."""

    name: str
    mana_cost: ManaCost
    has_mana_cost: bool
    supertypes: tuple[str, ...]
    card_types: tuple[str, ...]
    subtypes: tuple[str, ...]
    colors: tuple[str, ...]
    rules_text: str
    power: int | None
    toughness: int | None
    #: Printed loyalty of a planeswalker (rule 306.5b).
    loyalty: int | None = None
    #: Effects performed, in order, when the spell resolves (rule 608.2c).
    effects: tuple[Effect, ...] = ()
    #: A modal spell's modes ("Choose one --", rule 700.2); empty if not modal.
    modes: tuple[tuple[Effect, ...], ...] = ()
    #: How many modes are chosen: at least ``mode_min`` and at most ``mode_max`` (700.2);
    #: ``mode_repeat``: "You may choose the same mode more than once" (700.2d).
    mode_min: int = 1
    mode_max: int = 1
    mode_repeat: bool = False
    #: Pawprint modes (700.2i): each mode's number of {P}, and the {P} worth allowed.
    pawprints: tuple[int, ...] = ()
    pawprint_limit: int = 0
    #: Spree and similar (700.2h): each mode's additional cost, paid if it is chosen.
    mode_costs: tuple[ManaCost, ...] = ()
    #: "An opponent chooses" (700.2e): "" -- the controller chooses the modes.
    mode_chooser: str = ""
    #: Mana abilities "{T}: Add ...", each as the mana it adds, e.g. ``"G"`` or ``"CC"``.
    #: Basic land types grant theirs intrinsically (rule 305.6).
    mana_abilities: tuple[str, ...] = ()
    #: Its mana ability costs "{T}, Sacrifice [this]" (rules 605.1a, 701.21a), a Treasure's.
    mana_sacrifice: bool = False
    #: "Add {G} for each [permanent this describes]": its mana ability adds that mana once for
    #: each, counted from its controller's point of view as it is activated (605.1a, 106.4).
    mana_for_each: ObjectFilter | None = None
    #: "{2}: Add one mana of any color": its mana ability costs this mana instead of {T}
    #: (rule 605.1a), paid from its controller's mana pool as it is activated.
    mana_ability_cost: ManaCost | None = None
    #: "Spend this mana only to cast an instant or sorcery spell" (rule 106.6): the card
    #: types of the spells its mana abilities' mana may be spent to cast; () -- any cost.
    mana_only_for: tuple[str, ...] = ()
    abilities: tuple[ActivatedAbility, ...] = ()
    triggers: tuple[TriggeredAbility, ...] = ()
    keywords: tuple[str, ...] = ()
    #: "[This] enters tapped" (rule 614.1d).
    enters_tapped: bool = False
    #: "You may play N additional lands on each of your turns" (rule 305.2).
    extra_lands: int = 0
    #: An Aura's enchant ability (rule 303.4a, 702.5).
    enchant: TargetKind | None = None
    statics: tuple[StaticAbility, ...] = ()
    #: Protection from these colours or subtypes (rule 702.16), e.g. ("Demon", "Dragon").
    protection: tuple[str, ...] = ()
    #: "Hexproof from [quality]" (rule 702.11d): colour letters, "multicolored" or subtypes;
    #: it can't be the target of such spells or abilities its opponents control.
    hexproof_from: tuple[str, ...] = ()
    #: A token's definition (rule 111.4) rather than a card's.
    is_token: bool = False
    #: "Noncreature spells cost {1} more to cast" (rule 601.2f).
    noncreature_tax: int = 0
    #: An additional cost to cast this spell (rule 601.2f): sacrifice a creature or discard
    #: a card.
    additional_cost: AdditionalCost | None = None
    #: "You can't choose an untapped creature as this spell's target" (Enthralling Hold).
    enchant_tapped: bool = False
    #: "Enchant creature you control" (rule 303.4a): part of the enchant ability, so it is
    #: rechecked on resolution (608.2b) and as a state-based action (303.4d, 704.5m).
    enchant_you_control: bool = False
    #: "If [this] would be destroyed, regenerate it" (a static ability, rule 701.19b).
    regenerates: bool = False
    #: "[This] enters with N [kind] counters on it" (rule 614.1c); N None means X.
    enters_with_counters: tuple[tuple[str, int | None], ...] = ()
    #: "If a creature you control would die, return it to its owner's hand instead"
    #: (a replacement effect from a static ability, rule 614.1a).
    creatures_die_to_hand: bool = False
    #: Static abilities changing what spells cost (rule 601.2f).
    spell_costs: tuple[SpellCostChange, ...] = ()
    #: Replacement effects of its static abilities (rule 614.1).
    replacements: tuple[Replacement, ...] = ()
    #: What spells its controller's opponents cast that target it cost more (rule 601.2f).
    targeted_cost: TargetedCost | None = None
    #: A characteristic-defining ability for power (rules 604.3, 613.4a), e.g.
    #: "instants_and_sorceries_in_your_graveyard".
    power_cda: str = ""
    #: "You may spend mana as though it were mana of any color" (rule 609.4b): while its
    #: controller controls it, any mana they have may pay a colored symbol of their costs.
    spend_as_any_color: bool = False
    #: "As [this] enters, choose a card name" (rules 614.12a, 201.2): the controller chooses
    #: one as it enters; the permanent remembers it (its ``chosen_name``).
    enters_naming: bool = False
    #: "If a triggered ability of another Shrine you control triggers, it triggers an
    #: additional time" (rule 603.2d).
    extra_triggers: ExtraTriggers | None = None
    #: "You have protection from [quality]" (rule 702.16a-b, 702.16e): its controller has it;
    #: ``"chosen_name"`` -- the card name chosen as it entered (a name only when it says so).
    player_protection: str = ""
    #: Madness (rule 702.35a): the cost to cast it for when it is discarded into exile.
    madness_cost: ManaCost | None = None
    #: "This spell costs ... less to cast" (rules 601.2f, 118.7a).
    cost_reduction: CostReduction | None = None
    #: "You may cast [this] from your graveyard by paying ..." (rule 601.2f).
    graveyard_cast: GraveyardCast | None = None
    #: Rules a face-up plane changes (rule 901.7): "skip_untap_steps" (players skip their
    #: untap steps, 502), "all_permanents_untap" (all permanents untap during each player's
    #: untap step).
    plane_rules: tuple[str, ...] = ()
    #: The printing the definition was read from (MTGJSON ``setCode`` and ``number``), for
    #: deck lists (server.decks) only: a card is the same card in every printing (rules 201.2,
    #: 100.2a count copies by English name), so neither takes part in comparisons.
    set_code: str = field(default="", compare=False)
    number: str = field(default="", compare=False)
    # Derived once from the type line (the engine asks these constantly).
    creature: bool = field(init=False, repr=False, compare=False)
    planeswalker: bool = field(init=False, repr=False, compare=False)
    legendary: bool = field(init=False, repr=False, compare=False)
    is_aura: bool = field(init=False, repr=False, compare=False)
    is_equipment: bool = field(init=False, repr=False, compare=False)
    #: It has a triggered ability that functions in its owner's graveyard (rule 113.6k).
    triggers_from_graveyard: bool = field(init=False, repr=False, compare=False)
    #: Rule 305: a land card, played rather than cast.
    is_land: bool = field(init=False, repr=False, compare=False)
    #: Its own timing permits casting it any time its controller has priority: an instant
    #: (304.1) or a card with flash (702.8a).
    instant_speed: bool = field(init=False, repr=False, compare=False)
    #: It has a state trigger (rule 603.8).
    state_triggers: bool = field(init=False, repr=False, compare=False)
    #: It has a conditional static ability, "as long as ..." (rule 611.3b).
    conditional_statics: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        derived = {
            "triggers_from_graveyard": any(t.zone == "graveyard" for t in self.triggers),
            "creature": "Creature" in self.card_types,
            "planeswalker": "Planeswalker" in self.card_types,
            "legendary": "Legendary" in self.supertypes,
            "is_aura": "Aura" in self.subtypes,  # rule 303.4
            "is_equipment": "Equipment" in self.subtypes,  # rule 301.5
            "is_land": "Land" in self.card_types,
            "instant_speed": "Instant" in self.card_types or "Flash" in self.keywords,
            "state_triggers": any(t.event is TriggerEvent.STATE for t in self.triggers),
            "conditional_statics": any(s.condition is not None for s in self.statics),
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    def is_type(self, card_type: str) -> bool:
        """Whether the card has the given card type (rule 205.2)."""
        return card_type in self.card_types

    def has_keyword(self, keyword: str) -> bool:
        """Whether the card has the keyword ability (rule 702)."""
        return keyword in self.keywords

    @property
    def is_permanent_card(self) -> bool:
        """Rule 110.4: artifact, battle, creature, enchantment, land and planeswalker cards."""
        return not ("Instant" in self.card_types or "Sorcery" in self.card_types)

    def spell_effects(self, modes: tuple[int, ...] = ()) -> tuple[Effect, ...]:
        """The effects of the spell as cast: the chosen modes' in printed order (608.2c), a
        mode chosen twice appearing twice in sequence (rules 700.2, 700.2d)."""
        if self.modes:
            return tuple(e for m in sorted(modes) for e in self.modes[m])
        return self.effects

    def spell_targets(self, modes: tuple[int, ...] = ()) -> tuple[TargetReq, ...]:
        """Targets the spell requires, in text order (rules 601.2c, 303.4a for Auras); a
        modal spell's only for its chosen modes (700.2c)."""
        if self.enchant is not None:
            return (TargetReq(self.enchant, tapped=self.enchant_tapped,
                              you_control=self.enchant_you_control),)
        return tuple(e.target for e in self.spell_effects(modes) if e.target is not None)

    @property
    def type_line(self) -> str:
        """The printed type line, e.g. ``Basic Land — Forest`` (rule 205.1)."""
        left = " ".join((*self.supertypes, *self.card_types))
        return f"{left} — {' '.join(self.subtypes)}" if self.subtypes else left


#: Prowess (rule 702.108a): "Whenever you cast a noncreature spell, this creature gets +1/+1
#: until end of turn."
PROWESS = TriggeredAbility(
    text="Prowess (Whenever you cast a noncreature spell, this creature gets +1/+1 until end "
         "of turn.)",
    event=TriggerEvent.CAST,
    effects=(Effect(Verb.MODIFY_PT, who=Who.SELF, power=1, toughness=1),),
    subject=TriggerSubject.FILTER,
    filter=ObjectFilter(not_types=("Creature",)),
)
