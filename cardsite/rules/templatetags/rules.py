"""``{% table_rules "gongzhu" %}``: the five key points as a card, for a table page."""

from django import template

from cardsite.rules.pages import table_rules as find_table_rules
from cardsite.rules.render import card_html

register = template.Library()


@register.inclusion_tag("rules/_table_rules.html")
def table_rules(game, language=None):
    return {"rules": find_table_rules(game, language)}


@register.simple_tag
def card(code):
    """``{% card "QS" %}``: one small inline card."""
    return card_html(code)
