/**
 * Aqueduct's one expression language: AQ dequeue conditions, subscriber rules and JMS message
 * selectors ({@link io.aqueduct.engine.expression.Expression#parseSelector}, the same parser in
 * selector mode; JMS header fields are mapped by {@link io.aqueduct.engine.expression.JmsHeaders}). SQL-WHERE-like text is parsed once into an immutable tree
 * ({@link io.aqueduct.engine.expression.Expression#parse}) and evaluated in Java, never in SQL,
 * against a {@link io.aqueduct.engine.expression.MessageView}: message properties, user properties
 * and the payload ({@link io.aqueduct.engine.expression.PayloadView}: JSON members, Java object
 * getters and fields, XML elements and XPath). Malformed text fails with AQ error 25448
 * ({@link io.aqueduct.engine.expression.ExpressionSyntaxException}) naming the position.
 */
package io.aqueduct.engine.expression;
