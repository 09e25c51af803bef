"""Frozen, typed card definitions (see docs/development.md, "Adding a card").

Printed characteristics come from MTGJSON-format data; behaviour is data over a closed
vocabulary of effects named after the rules' verbs. This module holds only the types; the
loader in :mod:`server.cards` validates data files into them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING, Literal, TypeAlias

from server.cards.mana import ManaCost

if TYPE_CHECKING:
    from server.cards.amounts import Amount, AnyCondition
    from server.cards.verbs import Effect


class TargetKind(Enum):
    """What sort of thing a target is (rules 115.1-115.2): the noun phrase after the word
    "target" is this sort plus the :class:`TargetReq`'s ``filter``."""

    #: A player (rule 115.1): the filter's ``controller`` says which, relative to the
    #: controller of the spell or ability -- "you", "opponent" ("target opponent", 102.2),
    #: "any" ("target player") or "that_player"; nothing else of the filter applies.
    PLAYER = "player"
    #: A permanent the filter describes ("target creature you control", 115.1).
    PERMANENT = "permanent"
    #: Any player, or a permanent the filter describes: "any target" (a creature, player,
    #: planeswalker or battle, rule 115.4), "target player or planeswalker".
    PLAYER_OR_PERMANENT = "player_or_permanent"
    #: A spell on the stack the filter describes (rule 112.1): "target instant or sorcery
    #: spell".
    SPELL = "spell"
    #: Any spell, or a permanent the filter describes: "target spell or creature".
    SPELL_OR_PERMANENT = "spell_or_permanent"
    #: A card in a graveyard the filter describes (rules 115.2, 404.1); the filter's
    #: ``controller`` is whose graveyard ("you": "from your graveyard", "any": "from a
    #: graveyard") -- a card's owner controls it there (rule 108.4a).
    CARD_IN_GRAVEYARD = "card_in_graveyard"
    #: An activated or triggered ability on the stack the filter describes (rules 115.2,
    #: 113.3; mana abilities never use the stack, 605.3b).
    ABILITY = "ability"


def _any_object() -> ObjectFilter:
    """A target's filter when none is stated: anything of its kind, anyone's."""
    return ObjectFilter(controller=Controller.ANY)


@dataclass(frozen=True, slots=True)
class TargetReq:
    """One instance of the word "target" (rule 115.1): what sort of thing (``kind``), which
    of them (``filter``, from the point of view of the spell's or ability's controller) and
    how many."""

    kind: TargetKind
    filter: ObjectFilter = field(default_factory=_any_object)
    #: How many targets this instance names ("two target creatures").
    count: int = 1
    #: "up to N": the player announces how many, 0 to N (rule 601.2c).
    up_to: bool = False
    #: "another target creature" of a spell or ability with several instances of the word
    #: "target": not an object or player chosen for an earlier one (rules 115.3, 601.2c --
    #: without it, the same object may be chosen once for each instance).
    other_target: bool = False


class Condition(Enum):
    """Named conditions for "if" clauses: intervening ifs (603.4), "activate only if" (602.5b)
    and conditional effects -- those that are no amounts. A condition that counts something
    ("if a creature died this turn", "if you have no cards in hand") is a comparison of an
    amount (:class:`server.cards.amounts.Compare`)."""

    #: "If you win [the clash]" (rule 701.30d).
    WON_CLASH = "won_clash"
    #: "if [this] is untapped" (an intervening "if", rule 603.4).
    SOURCE_UNTAPPED = "source_untapped"
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


class Rounding(Enum):
    """"Half [an amount], rounded up/down" (rule 107.1a: the effect says which way)."""

    UP = "up"
    DOWN = "down"


class Controller(Enum):
    """Who must control an object a filter matches (rule 102.2 "opponent")."""

    YOU = "you"
    OPPONENT = "opponent"
    ANY = "any"
    #: "... that player controls": "that player" of the triggered ability's event (rule
    #: 603.2), e.g. the opponent dealt damage; matches nothing outside such an ability.
    THAT_PLAYER = "that_player"


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
    #: "modified": it has a counter on it, is equipped, or is enchanted by an Aura its
    #: controller controls (rule 700.9).
    modified: bool = False
    #: "with toughness N or greater / N or less" (after the layers, rule 613.4).
    min_toughness: int | None = None
    max_toughness: int | None = None
    #: "with mana value N or greater" (rule 202.3).
    min_mana_value: int | None = None
    #: "tapped creature": a tapped permanent (rule 110.5).
    tapped: bool = False
    #: "token": a token (rule 111.1).
    token: bool = False
    #: "blocking creature": a blocking creature (rule 509.1g).
    blocking: bool = False
    #: "red or green": colours of which it must have one (rule 105.2).
    colors: tuple[str, ...] = ()
    #: With ``with_counter``: "N or more [kind] counters on it" (rule 122.1).
    min_counters: int = 1
    #: An ability on the stack "that was activated this turn" (rule 700.10).
    activated_this_turn: bool = False


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


#: Zone names effects use for searching and exchanging.
EFFECT_ZONES = ("library", "hand", "graveyard", "exile", "battlefield", "library_top",
                "all_exile")
#: The kinds of counter (rule 122.1) card data may name: a misspelt kind is a load error, so a
#: card with a new kind adds it here.
COUNTER_KINDS = ("+1/+1", "-1/-1", "loyalty", "incarnation", "page", "soul")


class Players(Enum):
    """A set of players an effect names (rule 102): who draws, gains or loses life, searches,
    sacrifices, creates tokens, ... -- players, never objects. The engine computes the seats of
    each in one function (:func:`server.engine.effects.players_of`)."""

    #: The controller of the spell or ability (rule 109.5: "you").
    YOU = "you"
    #: Each opponent of the controller (rule 102.2), in APNAP order.
    EACH_OPPONENT = "each_opponent"
    #: Each player in the game (rule 102.1), in APNAP order (101.4).
    EACH_PLAYER = "each_player"
    #: The effect's target player(s) (rule 115.1): "target player draws two cards".
    TARGET = "target"
    #: The previous effect's target player ("Target player draws a card and loses half their
    #: life"; rule 608.2c): "that player", "they".
    THAT = "that"
    #: "That player" of a triggered ability's event (rules 603.2, 608.2h): the player the
    #: event is about -- the active player of "at the beginning of each player's upkeep",
    #: the controller of the creature that died or blocked, the player dealt damage.
    THAT_PLAYER = "that_player"
    #: The defending player (rules 506.2, 508.5): the player the attacking creature -- the
    #: trigger event's attacker, or else the source -- is attacking (or the controller of the
    #: planeswalker it attacks); once it is no longer attacking, the player it was attacking.
    DEFENDING_PLAYER = "defending_player"
    #: The player who chose the modes of this spell ("that player", rule 700.2e).
    CHOOSER = "chooser"
    #: The controller of the previous effect's target ("Its controller creates ..."), as it
    #: last existed (rule 608.2h).
    TARGET_CONTROLLER = "target_controller"
    #: "Each opponent who can't": each opponent the previous discard of this resolution
    #: could not make discard -- one with no card in hand (rule 701.9a).
    EACH_OPPONENT_WHO_COULDNT = "each_opponent_who_couldnt"


class ObjectRef(Enum):
    """An object (or objects) an effect names without describing them (rules 109, 608.2c):
    a permanent, a spell or a card. Every permanent of a description is :class:`Each`."""

    #: The effect's target object(s) (rule 115.1).
    TARGET = "target"
    #: The previous effect's target again ("that creature", "it"; rule 608.2c).
    THAT = "that"
    #: The source itself ("put a +1/+1 counter on [this]").
    SELF = "self"
    #: The permanent the source Aura or Equipment is attached to ("enchanted creature").
    ATTACHED = "attached"
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
    #: "a [filter] permanent you control" (no target): the controller chooses one of the
    #: permanents the effect's ``filter`` describes as the effect is performed (608.2c).
    CHOSEN_ONE = "chosen_one"
    #: "Untap up to four lands", "tap any number of untapped creatures you control", "return
    #: an instant or sorcery card from your graveyard": up to ``amount`` objects the
    #: ``filter`` describes (permanents, or cards in your ``zones``), chosen by the
    #: controller as the effect is performed (rules 608.2c-d) -- not targeted (115.10).
    CHOSEN = "chosen"


@dataclass(frozen=True, slots=True)
class Each:
    """"Each [filter]" / "all [filter]" / "[filter] get ...": every permanent ``filter``
    describes as the effect is performed (rule 608.2c), no target (115.10). The filter is
    read from the point of view of ``of``: ``YOU`` -- the effect's controller; ``CHOOSER`` --
    the player who chose the modes ("each creature that player controls", 700.2e);
    ``TARGET`` -- the effect's target player ("each creature target opponent controls",
    115.1)."""

    filter: ObjectFilter
    of: EachOf = Players.YOU


#: Whose point of view an "each" set is read from.
EachOf: TypeAlias = Literal[Players.YOU, Players.CHOOSER, Players.TARGET]
#: Whom an effect names: a player set (:class:`Players`), an object reference
#: (:class:`ObjectRef`), or every permanent of a description (:class:`Each`). Each effect
#: class narrows its ``who`` to what its verb acts on (:mod:`server.cards.verbs`).
Affected = Players | ObjectRef | Each
#: What an object verb acts on.
Objects = ObjectRef | Each


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
class CostReduction:
    """"This spell costs {N} less to cast [if condition]", "costs {X} less to cast, where X is
    [an amount]" (rules 601.2f, 118.7a): ``amount`` generic mana taken off the total cost after
    cost increases, never below zero generic mana, counted from the caster's point of view;
    only while ``condition`` holds."""

    amount: Amount | None = None
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
    condition: AnyCondition | None = None


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
    #: DISCARD_CARD: "Discard a land card or Shrine card" -- the card must match one of these
    #: descriptions (its characteristics in your hand, rule 109.3); empty: any card.
    cards: tuple[ObjectFilter, ...] = ()
    #: TAP_PERMANENTS: how many permanents are tapped, and what they must be ("two untapped
    #: Spirits you control"); SACRIFICE_CREATURE: what else the creature must be ("another
    #: creature", "a creature with defender"), None -- any creature you control.
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
        return tuple(t for e in self.effects if (t := e.target_req) is not None)


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
    #: "Whenever [whose] lose[s] life" (rule 119.3): once per life-loss event -- damage
    #: (120.3a), paying life (119.4) or an effect; "that much" is the life lost.
    LOSE_LIFE = "lose_life"
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
    #: STEP, DRAW, GAIN_LIFE, LOSE_LIFE, CRIME, EXPEND: whose turn it is / who draws, gains
    #: or loses life, commits the crime or expends -- you, an opponent or any player (102.2).
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
        return tuple(t for e in self.effects if (t := e.target_req) is not None)


class Affects(Enum):
    """What a static ability's continuous effect applies to (rules 604.2, 611.3) when it
    isn't every permanent of a description (an :class:`ObjectFilter`)."""

    SELF = "self"
    #: The permanent this Aura enchants / this Equipment equips (rules 303.4, 301.5).
    ATTACHED = "attached"


@dataclass(frozen=True, slots=True)
class StaticAbility:
    """A static ability's continuous effect (rules 604, 611.3), applied in layers (613)."""

    text: str
    #: The source itself, what it is attached to, or every permanent the filter describes
    #: from its controller's point of view ("Other Dogs you control", "Attacking creatures you
    #: control", "All creatures"), checked each time the layers are applied (611.3a).
    affects: Affects | ObjectFilter
    #: Layer 2: "You control enchanted creature".
    control: bool = False
    #: Layer 4: subtypes added ("is a Knight in addition to its other types").
    subtypes: tuple[str, ...] = ()
    #: Layer 6: keyword abilities granted.
    keywords: tuple[str, ...] = ()
    #: Layer 7c: power/toughness change -- with ``amount``, for each one counted ("+1/+1 for
    #: each soul counter on [this]", "+X/+0, where X is ...", rules 613.4c, 107.3), counted
    #: from the controller's point of view each time the layers are applied (611.3a).
    power: int = 0
    toughness: int = 0
    amount: Amount | None = None
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
    #: An Aura's enchant ability (rule 303.4a, 702.5): the permanents it may enchant, from
    #: its controller's point of view ("Enchant creature you control": rechecked on
    #: resolution, 608.2b, and as a state-based action, 303.4d, 704.5m).
    enchant: ObjectFilter | None = None
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
            spec = self.enchant
            if self.enchant_tapped:
                spec = replace(spec, tapped=True)
            return (TargetReq(TargetKind.PERMANENT, filter=spec),)
        return tuple(t for e in self.spell_effects(modes) if (t := e.target_req) is not None)

    @property
    def type_line(self) -> str:
        """The printed type line, e.g. ``Basic Land — Forest`` (rule 205.1)."""
        left = " ".join((*self.supertypes, *self.card_types))
        return f"{left} — {' '.join(self.subtypes)}" if self.subtypes else left
