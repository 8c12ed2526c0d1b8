/*
 * The POST /users body as a class-validator DTO in plain JavaScript (what tsc emits for the DTO in
 * bench/frameworks/switchyard/create-user.ts), for the NestJS and routing-controllers apps.
 */
const { IsInt, IsString, Length, Min } = require("class-validator");
const { NAME_MAX, NAME_MIN } = require("../api.js");
const { decorateProperty } = require("./decorate.js");

/** A user to create: a name of 1–40 characters and an integer age ≥ 0. */
class CreateUser {}
decorateProperty(CreateUser, "name", String, IsString(), Length(NAME_MIN, NAME_MAX));
decorateProperty(CreateUser, "age", Number, IsInt(), Min(0));

module.exports = { CreateUser };
