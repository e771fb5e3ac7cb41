package contract

// DescribeSchemaError is describeSchemaError, for the external tests.
var DescribeSchemaError = describeSchemaError
