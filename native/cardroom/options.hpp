// A game's rules options in C++, each declared once, beside the Rules struct that holds them.
//
// A game lists the options its core reads as an X-macro of (type, name, default), the name the
// option's own in the Python rules (games/<game>/rules.py). From that one list the game's Rules
// struct declares its members (CARDROOM_OPTION_MEMBER) and names each with its member
// (CARDROOM_OPTION_ENTRY, in a static each_option(visit)), and the binding (rules_py.hpp) reads
// every option from the Python rules by that name: an option added to the list and to rules.py
// needs no other line. An option's type is bool, a whole number, or a choice: an enum whose
// values are the option's texts in Python, named by a choices(T) found beside the enum.
#pragma once

#include <array>

#include "chance.hpp"

#define CARDROOM_OPTION_MEMBER(type, name, value) type name = value;
#define CARDROOM_OPTION_ENTRY(type, name, value) visit(#name, &Self::name);

namespace cardroom {

// The rules' option stream (engine.STREAMS), by Stream's values.
constexpr std::array<const char*, 2> choices(Stream) { return {"twister", "splitmix"}; }

}  // namespace cardroom
