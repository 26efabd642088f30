// A game's rules crossing from Python whole: the core's rules object (BahaRules, BaebaeRules) is
// made from the Python Rules itself, each option read by the name the game's option list gives it
// (options.hpp), and read back by the same names. Neither the binding nor the type stubs name an
// option: a game's list in its header is the one place C++ names them.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "cardroom/options.hpp"

namespace cardroom {
namespace rules_py {

namespace py = pybind11;

// What the core's rules are made from, in a refusal: "BahaRules is made from Baha's rules (...)".
struct Source {
    const char* type;    // the core's class, "BahaRules"
    const char* game;    // the Python rules' ``game``, "baha"
    const char* rules;   // what to give, "Baha's rules (cardroom.games.baha.Rules)"
};

inline std::string shown(py::handle value) {
    std::string text = py::repr(value);
    return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

// ``value`` as option ``name`` of type T (bool, a whole number, a choice), or a refusal in words.
template <class T>
T option_value(const Source& from, const char* name, py::handle value) {
    auto option = [&]() { return std::string(from.type) + ": the rules' option " + name; };  // for a refusal
    if constexpr (std::is_same_v<T, bool>) {
        if (!PyBool_Check(value.ptr())) throw py::type_error(option() + " must be true or false, not " + shown(value));
        return value.ptr() == Py_True;
    } else if constexpr (std::is_integral_v<T>) {
        if (!PyLong_Check(value.ptr()) || PyBool_Check(value.ptr()))
            throw py::type_error(option() + " must be a whole number, not " + shown(value));
        int overflow = 0;
        long long whole = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
        if (overflow != 0 || whole < std::numeric_limits<T>::min() || whole > std::numeric_limits<T>::max())
            throw py::value_error(option() + " is out of the core's range: " + shown(value));
        return static_cast<T>(whole);
    } else {
        constexpr auto names = choices(T{});
        if (PyUnicode_Check(value.ptr())) {
            const char* text = PyUnicode_AsUTF8(value.ptr());
            if (text == nullptr) throw py::error_already_set();
            for (size_t i = 0; i < names.size(); ++i)
                if (std::strcmp(text, names[i]) == 0) return static_cast<T>(i);
        }
        std::string allowed;
        for (const char* each : names) allowed += (allowed.empty() ? "" : ", ") + std::string(each);
        throw py::value_error(option() + " must be one of " + allowed + ", not " + shown(value));
    }
}

// ``value`` as Python holds it: True/False, an int, or the choice's text.
template <class T>
py::object python_value(const T& value) {
    if constexpr (std::is_same_v<T, bool>) {
        return py::bool_(value);
    } else if constexpr (std::is_integral_v<T>) {
        return py::int_(value);
    } else {
        return py::str(choices(T{})[static_cast<size_t>(value)]);
    }
}

// The options of Rules read from the Python rules ``given`` by name; a rules object of another game,
// or a thing that is no rules, is refused in words naming what was given and what is wanted.
template <class Rules>
Rules rules_from(const Source& from, py::handle given) {
    py::object game = py::getattr(given, "game", py::none());
    const char* game_name = PyUnicode_Check(game.ptr()) ? PyUnicode_AsUTF8(game.ptr()) : nullptr;
    if (game_name == nullptr || std::strcmp(game_name, from.game) != 0) {
        PyErr_Clear();  // a game's name that is no text in UTF-8 is another game's
        std::string what = py::isinstance<py::str>(game)
                               ? "the rules of " + shown(game)
                               : shown(given) + " (" + Py_TYPE(given.ptr())->tp_name + ")";
        throw py::type_error(std::string(from.type) + " is made from " + from.rules + ", not " + what);
    }
    Rules made;
    Rules::each_option([&](const char* name, auto member) {
        using T = std::remove_reference_t<decltype(made.*member)>;
        PyObject* value = PyObject_GetAttrString(given.ptr(), name);  // one look-up, no exception when there
        if (value == nullptr) {
            if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw py::error_already_set();
            PyErr_Clear();
            throw py::type_error(std::string(from.type) + ": the rules given have no option " + name +
                                 ", which " + from.rules + " have and the core reads");
        }
        made.*member = option_value<T>(from, name, py::reinterpret_steal<py::object>(value));
    });
    return made;
}

// The options of Rules as read-only attributes of the core's class ``cls`` by their names, and
// ``options``, the names in the order the core's list gives them. ``rules_of`` reaches the Rules
// in a bound object.
template <class Rules, class Class, class Get>
void bind_options(Class& cls, Get rules_of) {
    py::list names;
    Rules::each_option([&](const char* name, auto member) {
        names.append(name);
        cls.def_property_readonly(name, [rules_of, member](const typename Class::type& bound) {
            return python_value(rules_of(bound).*member);
        });
    });
    cls.attr("options") = py::tuple(names);
}

}  // namespace rules_py
}  // namespace cardroom
